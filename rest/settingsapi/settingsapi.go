// Package settingsapi serves GET and PUT /application/settings (administrators only).
package settingsapi

import (
	"anvil/internal/service/settings"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ settings *settings.Service }

// Register adds the application settings routes.
func Register(t *route.Table) {
	h := &handlers{settings: t.S.Settings}
	t.GET("/application/settings", h.get, route.AdminOnly)
	t.PUT("/application/settings", h.update, route.AdminOnly)
}

// get handles GET /application/settings.
func (h *handlers) get(c *gin.Context) error {
	v, err := h.settings.Read(c.Request.Context(), httpx.Actor(c))
	if err != nil {
		return err
	}
	return httpx.OK(c, presenter.ApplicationSettings(v))
}

// update handles PUT /application/settings.
func (h *handlers) update(c *gin.Context) error {
	in, err := bind(c)
	if err != nil {
		return err
	}
	v, err := h.settings.Update(c.Request.Context(), httpx.Actor(c), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, presenter.ApplicationSettings(v))
}
