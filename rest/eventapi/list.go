package eventapi

import (
	"anvil/internal/pagination"
	"anvil/internal/service/events"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// listRequest is a bound event listing.
type listRequest struct {
	params events.ListParams
	order  events.Order
	page   pagination.Page
}

// bindList reads the parameters every event listing takes (action, target_type, before,
// after, sort, the page); scope only for GET /events. Bad values are 400s naming them.
func bindList(c *gin.Context, withScope bool) (listRequest, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return listRequest{}, err
	}
	var r listRequest
	if v := b.Enum("action", events.Actions...); v != nil {
		r.params.Action = *v
	}
	if v := b.Enum("target_type", events.TargetTypes...); v != nil {
		r.params.TargetType = *v
	}
	r.params.Before, r.params.After = b.Date("before"), b.Date("after")
	if v := b.Enum("sort", events.SortValues...); v != nil {
		r.order.Sort = *v
	}
	if withScope {
		r.params.Scope = b.StringDefault("scope", "")
	}
	r.page = httpx.BindPage(b, "")
	if err := b.Err(); err != nil {
		return r, err
	}
	if r.page.Keyset {
		// Grape's error!(msg, 405), as GitLab's pagination answers a keyset request it does
		// not serve.
		return r, httpx.NotAllowed(events.KeysetUnavailableMessage)
	}
	return r, nil
}

// list binds, sets the parent, calls the one listing and presents the page.
func (h *handlers) list(c *gin.Context, withScope bool, parent func(*events.ListParams)) error {
	r, err := bindList(c, withScope)
	if err != nil {
		return err
	}
	parent(&r.params)
	res, err := h.events.List(c.Request.Context(), httpx.Actor(c), r.params, r.order, r.page)
	if err != nil {
		return err
	}
	commented, err := h.notes.ForEvents(c.Request.Context(), res.Items)
	if err != nil {
		return err
	}
	out := httpx.P(c).Events(res.Items)
	httpx.P(c).AttachNotes(out, commented)
	return httpx.Page(c, httpx.P(c).BaseURL, res, out)
}

// own handles GET /events: the caller's events (scope=all: those of the caller's projects).
func (h *handlers) own(c *gin.Context) error {
	return h.list(c, true, func(*events.ListParams) {})
}

// user handles GET /users/:id/events (id or username).
func (h *handlers) user(c *gin.Context) error {
	return h.list(c, false, func(p *events.ListParams) { p.User = httpx.PathParam(c, "id") })
}

// project handles GET /projects/:id/events.
func (h *handlers) project(c *gin.Context) error {
	return h.list(c, false, func(p *events.ListParams) { p.Project = httpx.PathParam(c, "id") })
}
