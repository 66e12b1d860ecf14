package eventapi

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/events"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// bindList reads the parameters every event listing takes (action, target_type, before,
// after, sort, the page); scope only for GET /events.
func bindList(c *gin.Context, withScope bool) (events.ListParams, pagination.Offset, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return events.ListParams{}, pagination.Offset{}, err
	}
	var p events.ListParams
	if v := b.Enum("action", events.Actions...); v != nil {
		p.Action = *v
	}
	if v := b.Enum("target_type", events.TargetTypes...); v != nil {
		p.TargetType = *v
	}
	p.Before, p.After = b.Date("before"), b.Date("after")
	if v := b.Enum("sort", events.SortValues...); v != nil {
		p.Sort = *v
	}
	if withScope {
		p.Scope = b.StringDefault("scope", "")
	}
	return p, httpx.Offset(b), b.Err()
}

// list binds, calls one listing and presents the page.
func list(c *gin.Context, withScope bool, call func(context.Context, *authz.Actor, events.ListParams, pagination.Offset) (pagination.Result[*ent.Event], error)) error {
	p, page, err := bindList(c, withScope)
	if err != nil {
		return err
	}
	r, err := call(c.Request.Context(), httpx.Actor(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Events(r.Items))
}

// own handles GET /events: the caller's events (scope=all: those of the caller's projects).
func (h *handlers) own(c *gin.Context) error {
	return list(c, true, h.events.ListOwn)
}

// user handles GET /users/:id/events (id or username).
func (h *handlers) user(c *gin.Context) error {
	ref := httpx.PathParam(c, "id")
	return list(c, false, func(ctx context.Context, a *authz.Actor, p events.ListParams, page pagination.Offset) (pagination.Result[*ent.Event], error) {
		return h.events.ListUser(ctx, a, ref, p, page)
	})
}

// project handles GET /projects/:id/events.
func (h *handlers) project(c *gin.Context) error {
	ref := httpx.PathParam(c, "id")
	return list(c, false, func(ctx context.Context, a *authz.Actor, p events.ListParams, page pagination.Offset) (pagination.Result[*ent.Event], error) {
		return h.events.ListProject(ctx, a, ref, p, page)
	})
}
