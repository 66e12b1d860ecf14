// Package userapi serves the user endpoints: /user, /users and their sub-resources.
package userapi

import (
	"anvil/internal/service/users"
	"anvil/rest/route"
)

type handlers struct{ users *users.Service }

// Register adds the user routes. Sub-resources of /users use the :id parameter name (gin
// requires one name per position).
func Register(t *route.Table) {
	h := &handlers{users: t.S.Users}
	t.GET("/user", h.current, route.SignedIn, route.UserScope)
	t.GET("/user/activities", h.activities, route.AdminOnly, route.UserScope)
	t.GET("/users", h.list, route.UserScope)
	t.GET("/users/:id", h.get, route.UserScope)
	t.POST("/users", h.create, route.AdminOnly)
	t.PUT("/users/:id", h.update, route.AdminOnly)
	t.DELETE("/users/:id", h.delete, route.AdminOnly)

	t.POST("/users/:id/block", h.block, route.AdminOnly)
	t.POST("/users/:id/unblock", h.unblock, route.AdminOnly)
	t.POST("/users/:id/activate", h.activate, route.AdminOnly)
	t.POST("/users/:id/deactivate", h.deactivate, route.AdminOnly)
	t.POST("/users/:id/ban", h.ban, route.AdminOnly)
	t.POST("/users/:id/unban", h.unban, route.AdminOnly)

	t.GET("/users/:id/custom_attributes", h.listAttributes, route.AdminOnly, route.UserScope)
	t.GET("/users/:id/custom_attributes/:key", h.getAttribute, route.AdminOnly, route.UserScope)
	t.PUT("/users/:id/custom_attributes/:key", h.setAttribute, route.AdminOnly)
	t.DELETE("/users/:id/custom_attributes/:key", h.deleteAttribute, route.AdminOnly)
}
