package groupapi

import (
	"unicode/utf8"

	"anvil/internal/apperr"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// attributePath reads :id and, with withKey, :key of the custom attribute routes.
func attributePath(c *gin.Context, withKey bool) (string, string, error) {
	id := httpx.PathParam(c, "id")
	if !withKey {
		return id, "", nil
	}
	key := httpx.PathParam(c, "key")
	if !utf8.ValidString(key) {
		return "", "", apperr.Invalid("key")
	}
	return id, key, nil
}

// listAttributes handles GET /groups/:id/custom_attributes (administrators).
func (h *handlers) listAttributes(c *gin.Context) error {
	id, _, err := attributePath(c, false)
	if err != nil {
		return err
	}
	attrs, err := h.groups.CustomAttributes(c.Request.Context(), httpx.Actor(c), id)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).GroupCustomAttributes(attrs))
}

// getAttribute handles GET /groups/:id/custom_attributes/:key (administrators).
func (h *handlers) getAttribute(c *gin.Context) error {
	id, key, err := attributePath(c, true)
	if err != nil {
		return err
	}
	a, err := h.groups.CustomAttribute(c.Request.Context(), httpx.Actor(c), id, key)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).GroupCustomAttribute(a))
}

// setAttribute handles PUT /groups/:id/custom_attributes/:key (administrators): value is
// required; the attribute is created or replaced.
func (h *handlers) setAttribute(c *gin.Context) error {
	id, key, err := attributePath(c, true)
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("value")
	value := b.StringDefault("value", "")
	if err := b.Err(); err != nil {
		return err
	}
	a, err := h.groups.SetCustomAttribute(c.Request.Context(), httpx.Actor(c), id, key, value)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).GroupCustomAttribute(a))
}

// deleteAttribute handles DELETE /groups/:id/custom_attributes/:key (administrators): 204.
func (h *handlers) deleteAttribute(c *gin.Context) error {
	id, key, err := attributePath(c, true)
	if err != nil {
		return err
	}
	if err := h.groups.DeleteCustomAttribute(c.Request.Context(), httpx.Actor(c), id, key); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
