// Package labelapi serves project and group labels: /projects/:id/labels and /groups/:id/labels
// (list, read, create, update, delete, subscribe, unsubscribe) and the promotion of a project
// label to a group label.
package labelapi

import (
	"net/http"
	"strconv"

	"anvil/internal/service/labels"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	labels *labels.Service
	group  bool
}

// Register adds the label routes.
func Register(t *route.Table) {
	for _, r := range []struct {
		prefix string
		group  bool
	}{{"/projects", false}, {"/groups", true}} {
		h := &handlers{labels: t.S.Labels, group: r.group}
		t.GET(r.prefix+"/:id/labels", h.list)
		t.GET(r.prefix+"/:id/labels/:label_id", h.get)
		t.POST(r.prefix+"/:id/labels", h.create, route.SignedIn)
		t.PUT(r.prefix+"/:id/labels", h.update, route.SignedIn)
		t.PUT(r.prefix+"/:id/labels/:label_id", h.update, route.SignedIn)
		t.DELETE(r.prefix+"/:id/labels", h.delete, route.SignedIn)
		t.DELETE(r.prefix+"/:id/labels/:label_id", h.delete, route.SignedIn)
		t.POST(r.prefix+"/:id/labels/:label_id/subscribe", h.subscribe(true), route.SignedIn)
		t.POST(r.prefix+"/:id/labels/:label_id/unsubscribe", h.subscribe(false), route.SignedIn)
	}
	h := &handlers{labels: t.S.Labels}
	t.PUT("/projects/:id/labels/:label_id/promote", h.promote, route.SignedIn)
}

func (h *handlers) owner(c *gin.Context) labels.Owner {
	return labels.Owner{Group: h.group, Ref: httpx.PathParam(c, "id")}
}

// list handles GET .../labels.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := labels.ListParams{
		WithCounts:            b.BoolDefault("with_counts", false),
		IncludeAncestorGroups: b.BoolDefault("include_ancestor_groups", true),
		Search:                b.StringDefault("search", ""),
	}
	if h.group {
		p.IncludeDescendantGroups = b.BoolDefault("include_descendant_groups", false)
		p.OnlyGroupLabels = b.BoolDefault("only_group_labels", true)
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.labels.List(c.Request.Context(), httpx.Actor(c), h.owner(c), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Labels(r.Items, !h.group))
}

// get handles GET .../labels/:label_id (an id or a title).
func (h *handlers) get(c *gin.Context) error {
	v, err := h.labels.Get(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "label_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Label(v, !h.group))
}

// input reads the label attributes; titleParam is name (create) or new_name (update).
func input(b *params.Binder, titleParam string) labels.Input {
	in := labels.Input{Title: b.String(titleParam), Color: b.String("color"), Description: b.String("description")}
	if b.Has("priority") {
		if s := b.String("priority"); s == nil || *s == "" {
			in.ClearPriority = true
		} else {
			in.Priority = b.Int("priority")
		}
	}
	return in
}

// create handles POST .../labels.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("name", "color")
	in := input(b, "name")
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.labels.Create(c.Request.Context(), httpx.Actor(c), h.owner(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Label(v, !h.group))
}

// labelRef is the label a route names: the :label_id path segment, or on GitLab's older
// PUT and DELETE .../labels (still used by python-gitlab's label.save()) exactly one of the
// label_id and name parameters.
func labelRef(c *gin.Context, b *params.Binder) string {
	if c.Param("label_id") != "" {
		return httpx.PathParam(c, "label_id")
	}
	switch hasID, ok := b.ExactlyOneOf("label_id", "name"); {
	case !ok:
	case hasID:
		if v := b.Int("label_id"); v != nil {
			return strconv.Itoa(*v)
		}
	default:
		if v := b.String("name"); v != nil && *v != "" {
			return *v
		}
		b.Fail("name is empty")
	}
	return ""
}

// update handles PUT .../labels/:label_id and PUT .../labels (label_id or name).
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ref := labelRef(c, b)
	in := input(b, "new_name")
	if !b.Has("new_name") && !b.Has("color") && !b.Has("description") && !b.Has("priority") {
		b.Fail("new_name, color, description, priority are missing, at least one parameter must be provided")
	}
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.labels.Update(c.Request.Context(), httpx.Actor(c), h.owner(c), ref, in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Label(v, !h.group))
}

// delete handles DELETE .../labels/:label_id and DELETE .../labels (label_id or name).
func (h *handlers) delete(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ref := labelRef(c, b)
	if err := b.Err(); err != nil {
		return err
	}
	if err := h.labels.Delete(c.Request.Context(), httpx.Actor(c), h.owner(c), ref); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// subscribe handles POST .../labels/:label_id/subscribe and /unsubscribe: 201 with the label,
// 304 when nothing changed.
func (h *handlers) subscribe(on bool) func(c *gin.Context) error {
	return func(c *gin.Context) error {
		v, changed, err := h.labels.Subscribe(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "label_id"), on)
		if err != nil {
			return err
		}
		if !changed {
			c.Status(http.StatusNotModified)
			c.Writer.WriteHeaderNow()
			return nil
		}
		return httpx.Created(c, httpx.P(c).Label(v, !h.group))
	}
}

// promote handles PUT /projects/:id/labels/:label_id/promote: the group label.
func (h *handlers) promote(c *gin.Context) error {
	v, err := h.labels.Promote(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "label_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Label(v, false))
}
