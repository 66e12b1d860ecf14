// Package protectedbranchapi serves GitLab's protected branches API:
// /projects/:id/protected_branches and /projects/:id/protected_branches/:name (a branch name
// or wildcard, URL-encoded).
package protectedbranchapi

import (
	"anvil/internal/service/protectedbranches"
	"anvil/rest/httpx"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	svc *protectedbranches.Service
}

// Register adds the protected branch routes. Reading needs read access to the code,
// changing Maintainer; the service decides.
func Register(t *route.Table) {
	h := &handlers{svc: t.S.ProtectedBranches}
	t.GET("/projects/:id/protected_branches", h.list)
	t.GET("/projects/:id/protected_branches/:name", h.get)
	t.POST("/projects/:id/protected_branches", h.create)
	t.PATCH("/projects/:id/protected_branches/:name", h.update)
	t.DELETE("/projects/:id/protected_branches/:name", h.remove)
}

// list handles GET /projects/:id/protected_branches.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	p := protectedbranches.ListParams{Search: b.StringDefault("search", "")}
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.svc.List(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).ProtectedBranches(r.Items))
}

// get handles GET /projects/:id/protected_branches/:name.
func (h *handlers) get(c *gin.Context) error {
	pb, err := h.svc.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "name"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ProtectedBranch(pb))
}

// create handles POST /projects/:id/protected_branches.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in, err := createInput(b)
	if err != nil {
		return err
	}
	pb, err := h.svc.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).ProtectedBranch(pb))
}

// update handles PATCH /projects/:id/protected_branches/:name.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in, err := updateInput(b)
	if err != nil {
		return err
	}
	pb, err := h.svc.Update(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "name"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).ProtectedBranch(pb))
}

// remove handles DELETE /projects/:id/protected_branches/:name.
func (h *handlers) remove(c *gin.Context) error {
	if err := h.svc.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "name")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
