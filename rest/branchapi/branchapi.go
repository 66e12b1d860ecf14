// Package branchapi serves GitLab's branches API: /projects/:id/repository/branches (list,
// create), /projects/:id/repository/branches/:branch (read, existence check, delete; the name
// URL-encoded) and /projects/:id/repository/merged_branches.
package branchapi

import (
	"net/http"
	"time"

	"anvil/internal/apperr"
	"anvil/internal/service/branches"
	"anvil/internal/service/refs"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ svc *branches.Service }

// Register adds the branch routes. Reads are open to anyone who may read the project's code
// (anonymous callers on public projects); writes need a signed-in user with push access.
func Register(t *route.Table) {
	h := &handlers{svc: t.S.Branches}
	const base = "/projects/:id/repository/branches"
	t.GET(base, h.list)
	t.GET(base+"/:branch", h.get)
	t.POST(base, h.create, route.SignedIn)
	t.DELETE(base+"/:branch", h.remove, route.SignedIn)
	t.DELETE("/projects/:id/repository/merged_branches", h.removeMerged, route.SignedIn)
}

// list handles GET /projects/:id/repository/branches.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := branches.ListParams{Project: httpx.PathParam(c, "id"), Search: b.StringDefault("search", ""), Regex: b.StringDefault("regex", "")}
	var o branches.Order
	if s := b.Enum("sort", branches.Sorts...); s != nil {
		o.Sort = *s
	}
	page := httpx.BindPage(b, refs.PageToken)
	if err := b.Err(); err != nil {
		return err
	}
	r, proj, err := h.svc.List(c.Request.Context(), httpx.Actor(c), p, o, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Branches(proj, r.Items))
}

// get handles GET and HEAD /projects/:id/repository/branches/:branch. HEAD answers 204 when
// the branch exists and 404 otherwise, without a body.
func (h *handlers) get(c *gin.Context) error {
	ctx, actor, name := c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "branch")
	if c.Request.Method == http.MethodHead {
		ok, err := h.svc.Exists(ctx, actor, httpx.PathParam(c, "id"), name)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFound("")
		}
		return httpx.NoContent(c)
	}
	p, br, err := h.svc.Get(ctx, actor, httpx.PathParam(c, "id"), name)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Branch(p, br))
}

// create handles POST /projects/:id/repository/branches.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := branches.CreateInput{Branch: required(b, "branch"), Ref: required(b, "ref")}
	if err := b.Err(); err != nil {
		return err
	}
	p, br, err := h.svc.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Branch(p, br))
}

// required reads a string GitLab declares required and not blank: "<name> is missing" when
// absent, "<name> is empty" when blank.
func required(b *params.Binder, name string) string {
	b.Require(name)
	v := b.String(name)
	if v == nil {
		return ""
	}
	if *v == "" {
		b.Fail(name + " is empty")
	}
	return *v
}

// remove handles DELETE /projects/:id/repository/branches/:branch.
func (h *handlers) remove(c *gin.Context) error {
	err := h.svc.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "branch"), unmodifiedSince(c))
	if err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// removeMerged handles DELETE /projects/:id/repository/merged_branches: 202 with GitLab's
// {"message":"202 Accepted"} once the merged branches are gone.
func (h *handlers) removeMerged(c *gin.Context) error {
	if err := h.svc.DeleteMerged(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id")); err != nil {
		return err
	}
	httpx.JSON(c, http.StatusAccepted, gin.H{"message": "202 Accepted"})
	return nil
}

// unmodifiedSince reads If-Unmodified-Since; an unparsable value is ignored, as Rails does.
func unmodifiedSince(c *gin.Context) *time.Time {
	v := c.GetHeader("If-Unmodified-Since")
	if v == "" {
		return nil
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return nil
	}
	return &t
}
