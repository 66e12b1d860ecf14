package tokenapi

import (
	"anvil/internal/apperr"
	"anvil/internal/service/tokens"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// list handles GET /personal_access_tokens.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := tokens.ListParams{
		UserID: b.Int("user_id"), Revoked: b.Bool("revoked"), State: str(b.Enum("state", "active", "inactive")),
		CreatedBefore: b.Time("created_before"), CreatedAfter: b.Time("created_after"),
		LastUsedBefore: b.Time("last_used_before"), LastUsedAfter: b.Time("last_used_after"),
		ExpiresBefore: b.Date("expires_before"), ExpiresAfter: b.Date("expires_after"),
		Search: b.StringDefault("search", ""), Sort: b.StringDefault("sort", ""),
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.tokens.List(c.Request.Context(), httpx.Actor(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, h.base, res, httpx.P(c).PersonalAccessTokens(res.Items))
}

// get handles GET /personal_access_tokens/:id.
func (h *handlers) get(c *gin.Context) error {
	t, err := h.tokens.Get(c.Request.Context(), httpx.Actor(c), idParam(c, "id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).PersonalAccessTokenWithLastUsedIps(t))
}

// getSelf handles GET /personal_access_tokens/self: the token the request came with.
func (h *handlers) getSelf(c *gin.Context) error {
	a := httpx.Actor(c)
	if a.Token == nil {
		return apperr.Unauthorized()
	}
	return httpx.OK(c, httpx.P(c).PersonalAccessTokenWithLastUsedIps(a.Token))
}

// revoke handles DELETE /personal_access_tokens/:id.
func (h *handlers) revoke(c *gin.Context) error {
	if err := h.tokens.Revoke(c.Request.Context(), httpx.Actor(c), idParam(c, "id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// revokeSelf handles DELETE /personal_access_tokens/self.
func (h *handlers) revokeSelf(c *gin.Context) error {
	if err := h.tokens.RevokeSelf(c.Request.Context(), httpx.Actor(c)); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// rotate handles POST /personal_access_tokens/:id/rotate (200, as GitLab answers).
func (h *handlers) rotate(c *gin.Context) error {
	in, err := rotateInput(c)
	if err != nil {
		return err
	}
	t, secret, err := h.tokens.Rotate(c.Request.Context(), httpx.Actor(c), idParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).PersonalAccessTokenWithToken(t, secret))
}

// rotateSelf handles POST /personal_access_tokens/self/rotate.
func (h *handlers) rotateSelf(c *gin.Context) error {
	in, err := rotateInput(c)
	if err != nil {
		return err
	}
	t, secret, err := h.tokens.RotateSelf(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).PersonalAccessTokenWithToken(t, secret))
}

// createForUser handles POST /users/:id/personal_access_tokens (administrators).
func (h *handlers) createForUser(c *gin.Context) error {
	userID, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name", "scopes")
	in := createInput(b)
	if err := checkScopes(b, in.Scopes, tokens.Scopes); err != nil {
		return err
	}
	in.UserID = userID
	t, secret, err := h.tokens.Create(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).PersonalAccessTokenWithToken(t, secret))
}

// createOwn handles POST /user/personal_access_tokens: a token for the caller, limited to the
// k8s_proxy and self_rotate scopes.
func (h *handlers) createOwn(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name", "scopes")
	in := createInput(b)
	if err := b.Err(); err != nil {
		return err
	}
	t, secret, err := h.tokens.CreateOwn(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).PersonalAccessTokenWithToken(t, secret))
}
