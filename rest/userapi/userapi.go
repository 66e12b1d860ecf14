// Package userapi serves the user endpoints: /user, /users and their sub-resources.
package userapi

import (
	"anvil/internal/apperr"
	"anvil/internal/service/users"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ users *users.Service }

// Register adds the user routes.
func Register(t *route.Table) {
	h := &handlers{users: t.S.Users}
	t.GET("/user", h.current, route.SignedIn, route.UserScope)
	t.GET("/users/:id", h.get, route.UserScope)
}

// current handles GET /user: the administrator view for administrators, else the public view.
func (h *handlers) current(c *gin.Context) error {
	a := httpx.Actor(c)
	u, err := h.users.Get(c.Request.Context(), a.UserID())
	if err != nil {
		return err
	}
	if a.IsAdmin() {
		return httpx.OK(c, httpx.P(c).UserWithAdmin(u, nil, nil, nil))
	}
	return httpx.OK(c, httpx.P(c).UserPublic(u, nil))
}

// get handles GET /users/:id.
func (h *handlers) get(c *gin.Context) error {
	a := httpx.Actor(c)
	id, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	u, err := h.users.Get(c.Request.Context(), id)
	if err != nil {
		return err
	}
	if !users.CanRead(a, u) {
		return apperr.NotFound("User")
	}
	if a.IsAdmin() {
		return httpx.OK(c, httpx.P(c).UserWithAdmin(u, nil, nil, nil))
	}
	return httpx.OK(c, httpx.P(c).UserSingle(u))
}
