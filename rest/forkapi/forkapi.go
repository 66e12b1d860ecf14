// Package forkapi serves GitLab's fork endpoints: POST /projects/:id/fork (fork a project),
// GET /projects/:id/forks (list its forks), POST /projects/:id/fork/:forked_from_id and
// DELETE /projects/:id/fork (manage the fork relation of existing projects).
package forkapi

import (
	"net/http"

	"anvil/internal/authz"
	"anvil/internal/service/forks"
	"anvil/internal/service/projects"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ svc *forks.Service }

// Register adds the fork routes. Listing forks is open to anyone who may see the project;
// the others need a signed-in user (the service checks fork_project, the target namespace, and
// ownership for the relation endpoints).
func Register(t *route.Table) {
	h := &handlers{svc: t.S.Forks}
	t.POST("/projects/:id/fork", h.fork, route.SignedIn)
	t.GET("/projects/:id/forks", h.list)
	t.POST("/projects/:id/fork/:forked_from_id", h.link, route.SignedIn)
	t.DELETE("/projects/:id/fork", h.unlink, route.SignedIn)
}

var visibilities = []string{"private", "internal", "public"}

// fork handles POST /projects/:id/fork: 201 with the new project.
func (h *handlers) fork(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := forks.ForkInput{
		NamespaceID: b.Int("namespace_id"), NamespacePath: b.String("namespace_path"), Namespace: b.String("namespace"),
		Path: b.String("path"), Name: b.String("name"), Description: b.String("description"),
		Visibility: b.Enum("visibility", visibilities...), Branch: b.String("branches"),
	}
	b.Bool("mr_default_target_self")
	opts := bindOptions(b)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.svc.Fork(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, opts))
}

// list handles GET /projects/:id/forks: the forks the caller may see, filtered and paged like
// GET /projects.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := bindList(b)
	simple, opts := b.BoolDefault("simple", false), bindOptions(b)
	page := projects.Page{Offset: httpx.Offset(b)}
	if b.StringDefault("pagination", "") == "keyset" && p.OrderBy == "id" {
		page.Keyset = true
	}
	if err := b.Err(); err != nil {
		return err
	}
	l, err := h.svc.List(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	if page.Keyset {
		httpx.SetKeysetLink(c, httpx.P(c).BaseURL, l.Next)
	} else {
		httpx.SetPageHeaders(c, httpx.P(c).BaseURL, l.Page, l.Total, len(l.Items))
	}
	return httpx.OK(c, httpx.P(c).ProjectList(l.Items, l.View, simple, opts))
}

// link handles POST /projects/:id/fork/:forked_from_id: 201 with the project.
func (h *handlers) link(c *gin.Context) error {
	p, v, err := h.svc.Link(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "forked_from_id"))
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, presenter.ProjectOptions{}))
}

// unlink handles DELETE /projects/:id/fork: 204, or 304 when the project is not a fork.
func (h *handlers) unlink(c *gin.Context) error {
	done, err := h.svc.Unlink(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	if !done {
		c.Status(http.StatusNotModified)
		c.Writer.WriteHeaderNow()
		return nil
	}
	return httpx.NoContent(c)
}

// bindList reads the project listing filters GET /projects/:id/forks accepts.
func bindList(b *params.Binder) projects.ListParams {
	p := projects.ListParams{
		Search: b.StringDefault("search", ""), SearchNamespaces: b.BoolDefault("search_namespaces", false),
		Owned: b.BoolDefault("owned", false), Membership: b.BoolDefault("membership", false),
		Starred: b.BoolDefault("starred", false), Archived: b.Bool("archived"),
		IDAfter: b.Int("id_after"), IDBefore: b.Int("id_before"),
		LastActivityAfter: b.Time("last_activity_after"), LastActivityBefore: b.Time("last_activity_before"),
		UpdatedAfter: b.Time("updated_after"), UpdatedBefore: b.Time("updated_before"),
		WithIssuesEnabled:        b.BoolDefault("with_issues_enabled", false),
		WithMergeRequestsEnabled: b.BoolDefault("with_merge_requests_enabled", false),
		Sort:                     b.StringDefault("sort", "desc"),
	}
	if v := b.Enum("visibility", visibilities...); v != nil {
		p.Visibility = *v
	}
	if v := b.Enum("order_by", projects.Orders...); v != nil {
		p.OrderBy = *v
	}
	b.Enum("sort", "asc", "desc")
	if l := b.Int("min_access_level"); l != nil {
		if authz.ValidMemberLevel(*l) {
			p.MinAccessLevel = *l
		} else {
			b.Fail("min_access_level does not have a valid value")
		}
	}
	return p
}

// bindOptions reads the options that change the project shapes.
func bindOptions(b *params.Binder) presenter.ProjectOptions {
	return presenter.ProjectOptions{
		License:          b.BoolDefault("license", false),
		Statistics:       b.BoolDefault("statistics", false),
		CustomAttributes: b.BoolDefault("with_custom_attributes", false),
	}
}
