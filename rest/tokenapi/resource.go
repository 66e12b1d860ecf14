package tokenapi

import (
	"anvil/internal/service/tokens"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// resourceHandlers serve the access tokens of one resource type (projects or groups).
type resourceHandlers struct {
	*handlers
	typ tokens.ResourceType
}

// resource names the :id of the route.
func (h *resourceHandlers) resource(c *gin.Context) tokens.Resource {
	return tokens.Resource{Type: h.typ, Ref: httpx.PathParam(c, "id")}
}

// list handles GET /projects/:id/access_tokens and GET /groups/:id/access_tokens.
func (h *resourceHandlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	state := str(b.Enum("state", "active", "inactive"))
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.tokens.ListResource(c.Request.Context(), httpx.Actor(c), h.resource(c), state, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, h.base, res, httpx.P(c).ResourceAccessTokens(res.Items))
}

// get handles GET /projects/:id/access_tokens/:token_id (and the group route).
func (h *resourceHandlers) get(c *gin.Context) error {
	t, err := h.tokens.GetResource(c.Request.Context(), httpx.Actor(c), h.resource(c), httpx.PathParam(c, "token_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ResourceAccessToken(t))
}

// create handles POST /projects/:id/access_tokens (and the group route).
func (h *resourceHandlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name", "scopes")
	in := createInput(b)
	level := b.Int("access_level")
	if err := b.Err(); err != nil {
		return err
	}
	t, secret, err := h.tokens.CreateResourceToken(c.Request.Context(), httpx.Actor(c), h.resource(c), tokens.ResourceCreateInput{
		Name: in.Name, Description: in.Description, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt, AccessLevel: level,
	})
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ResourceAccessTokenWithToken(t, secret))
}

// revoke handles DELETE /projects/:id/access_tokens/:token_id (and the group route).
func (h *resourceHandlers) revoke(c *gin.Context) error {
	err := h.tokens.RevokeResource(c.Request.Context(), httpx.Actor(c), h.resource(c), httpx.PathParam(c, "token_id"))
	if err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// rotate handles POST /projects/:id/access_tokens/:token_id/rotate (and the group route).
func (h *resourceHandlers) rotate(c *gin.Context) error {
	in, err := rotateInput(c)
	if err != nil {
		return err
	}
	t, secret, err := h.tokens.RotateResource(c.Request.Context(), httpx.Actor(c), h.resource(c), httpx.PathParam(c, "token_id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ResourceAccessTokenWithToken(t, secret))
}

// rotateSelf handles POST /projects/:id/access_tokens/self/rotate (and the group route).
func (h *resourceHandlers) rotateSelf(c *gin.Context) error {
	in, err := rotateInput(c)
	if err != nil {
		return err
	}
	t, secret, err := h.tokens.RotateResourceSelf(c.Request.Context(), httpx.Actor(c), h.resource(c), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ResourceAccessTokenWithToken(t, secret))
}
