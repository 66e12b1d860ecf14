package tokenapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// listImpersonation handles GET /users/:user_id/impersonation_tokens.
func (h *handlers) listImpersonation(c *gin.Context) error {
	userID, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	state := str(b.Enum("state", "all", "active", "inactive"))
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.tokens.ListImpersonation(c.Request.Context(), httpx.Actor(c), userID, state, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, h.base, res, httpx.P(c).ImpersonationTokens(res.Items))
}

// getImpersonation handles GET /users/:user_id/impersonation_tokens/:impersonation_token_id.
func (h *handlers) getImpersonation(c *gin.Context) error {
	userID, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	id, err := httpx.PathInt(c, "token_id", "Impersonation Token")
	if err != nil {
		return err
	}
	t, err := h.tokens.GetImpersonation(c.Request.Context(), httpx.Actor(c), userID, id)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ImpersonationToken(t))
}

// createImpersonation handles POST /users/:user_id/impersonation_tokens.
func (h *handlers) createImpersonation(c *gin.Context) error {
	userID, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name")
	in := createInput(b)
	if err := b.Err(); err != nil {
		return err
	}
	in.UserID = userID
	t, secret, err := h.tokens.CreateImpersonation(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ImpersonationTokenWithToken(t, secret))
}

// revokeImpersonation handles DELETE /users/:user_id/impersonation_tokens/:impersonation_token_id.
func (h *handlers) revokeImpersonation(c *gin.Context) error {
	userID, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	id, err := httpx.PathInt(c, "token_id", "Impersonation Token")
	if err != nil {
		return err
	}
	if err := h.tokens.RevokeImpersonation(c.Request.Context(), httpx.Actor(c), userID, id); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
