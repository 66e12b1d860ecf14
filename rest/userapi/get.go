package userapi

import (
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/users"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// current handles GET /user: the administrator view for administrators, else the public view.
func (h *handlers) current(c *gin.Context) error {
	a := httpx.Actor(c)
	admin := authz.CanUser(a, nil, authz.AdminUsers)
	load := users.LoadPublic
	if admin {
		load = users.LoadAdmin
	}
	u, err := h.users.Find(c.Request.Context(), a, a.UserID(), load)
	if err != nil {
		return err
	}
	if admin {
		return httpx.OK(c, httpx.P(c).UserWithAdmin(u))
	}
	return httpx.OK(c, httpx.P(c).UserPublic(u))
}

// get handles GET /users/:id: the single-user view, or the administrator's detailed view.
// GitLab answers anonymous callers 403 "Not authorized!".
func (h *handlers) get(c *gin.Context) error {
	a := httpx.Actor(c)
	if a.IsAnonymous() {
		return apperr.Forbidden("Not authorized!")
	}
	id, err := httpx.PathInt(c, "id", "User")
	if err != nil {
		return err
	}
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	admin := authz.CanUser(a, nil, authz.AdminUsers)
	load := users.LoadBasic
	if admin {
		load = users.LoadAdminDetails
	}
	load.CustomAttributes = b.BoolDefault("with_custom_attributes", false)
	if err := b.Err(); err != nil {
		return err
	}
	u, err := h.users.Find(c.Request.Context(), a, id, load)
	if err != nil {
		return err
	}
	if admin {
		return httpx.OK(c, httpx.P(c).UserDetailsWithAdmin(u))
	}
	return httpx.OK(c, httpx.P(c).UserSingle(u, authz.CanUser(a, u, authz.ReadUserProfile), true))
}
