// Package tagapi serves GitLab's tags API: /projects/:id/repository/tags (list, create) and
// /projects/:id/repository/tags/:tag_name (read, delete; the name URL-encoded).
package tagapi

import (
	"net/http"
	"time"

	"anvil/internal/service/refs"
	"anvil/internal/service/tags"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ svc *tags.Service }

// Register adds the tag routes. Reads are open to anyone who may read the project's code
// (anonymous callers on public projects); writes need a signed-in user with push access.
func Register(t *route.Table) {
	h := &handlers{svc: t.S.Tags}
	const base = "/projects/:id/repository/tags"
	t.GET(base, h.list)
	t.GET(base+"/:tag_name", h.get)
	t.POST(base, h.create, route.SignedIn)
	t.DELETE(base+"/:tag_name", h.remove, route.SignedIn)
}

// list handles GET /projects/:id/repository/tags: offset pages, or keyset pages with
// pagination=keyset (Link rel="next" carries page_token).
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := tags.ListParams{Project: httpx.PathParam(c, "id"), Search: b.StringDefault("search", "")}
	o := tags.Order{By: tags.OrderUpdated, Sort: "desc"}
	if v := b.Enum("order_by", tags.Orders...); v != nil {
		o.By = *v
	}
	if v := b.Enum("sort", "asc", "desc"); v != nil {
		o.Sort = *v
	}
	page := httpx.BindPage(b, refs.PageToken)
	if err := b.Err(); err != nil {
		return err
	}
	r, proj, err := h.svc.List(c.Request.Context(), httpx.Actor(c), p, o, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Tags(proj, r.Items))
}

// get handles GET /projects/:id/repository/tags/:tag_name.
func (h *handlers) get(c *gin.Context) error {
	p, t, err := h.svc.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "tag_name"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Tag(p, t))
}

// create handles POST /projects/:id/repository/tags.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("tag_name", "ref")
	in := tags.CreateInput{TagName: str(b, "tag_name"), Ref: str(b, "ref"), Message: str(b, "message")}
	if err := b.Err(); err != nil {
		return err
	}
	p, t, err := h.svc.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Tag(p, t))
}

func str(b *params.Binder, name string) string { return b.StringDefault(name, "") }

// remove handles DELETE /projects/:id/repository/tags/:tag_name.
func (h *handlers) remove(c *gin.Context) error {
	var since *time.Time
	if v := c.GetHeader("If-Unmodified-Since"); v != "" {
		if t, err := http.ParseTime(v); err == nil {
			since = &t
		}
	}
	if err := h.svc.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "tag_name"), since); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
