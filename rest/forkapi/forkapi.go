// Package forkapi serves GitLab's fork endpoints: POST /projects/:id/fork (fork a project),
// GET /projects/:id/forks (list its forks), POST /projects/:id/fork/:forked_from_id and
// DELETE /projects/:id/fork (manage the fork relation of existing projects).
package forkapi

import (
	"net/http"

	"anvil/internal/service/forks"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/projectapi"
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
	opts := projectapi.BindOptions(b)
	if err := b.Err(); err != nil {
		return err
	}
	p, v, err := h.svc.Fork(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Project(p, v, opts))
}

// list handles GET /projects/:id/forks: the forks the caller may see, filtered, ordered and
// paged like GET /projects (the same binder: keyset pages in id order only, 405 otherwise).
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	req, err := projectapi.BindList(b, true)
	if err != nil {
		return err
	}
	p := forks.ListParams{Project: httpx.PathParam(c, "id"), ListParams: req.Params}
	r, v, err := h.svc.List(c.Request.Context(), httpx.Actor(c), p, req.Order, req.Page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).ProjectList(r.Items, v, req.Simple, req.Options))
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
