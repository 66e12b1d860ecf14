package commitapi

import (
	"anvil/internal/pagination"
	"anvil/internal/service/commits"
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// list handles GET /projects/:id/repository/commits. Pages carry no totals (GitLab does not
// count commits): a full page announces a next one.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := commits.ListParams{
		Project:     httpx.PathParam(c, "id"),
		RefName:     b.StringDefault("ref_name", ""),
		Since:       b.Time("since"),
		Until:       b.Time("until"),
		Path:        b.StringDefault("path", ""),
		Author:      b.StringDefault("author", ""),
		All:         b.BoolDefault("all", false),
		WithStats:   b.BoolDefault("with_stats", false),
		FirstParent: b.BoolDefault("first_parent", false),
		Trailers:    b.BoolDefault("trailers", false),
	}
	o := commits.Order{By: "default"}
	if v := b.Enum("order", "default", "topo"); v != nil {
		o.By = *v
	}
	page := pagination.Page{Offset: httpx.Offset(b)}
	if err := b.Err(); err != nil {
		return err
	}
	r, proj, err := h.svc.List(c.Request.Context(), httpx.Actor(c), p, o, page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).CommitList(proj, r.Items, p.WithStats, p.Trailers))
}

// get handles GET /projects/:id/repository/commits/:sha: the commit with stats (stats=false
// drops them), status and last_pipeline null.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	stats := b.BoolDefault("stats", true)
	if err := b.Err(); err != nil {
		return err
	}
	d, err := h.svc.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"), stats)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).CommitDetail(d))
}

// refs handles GET /projects/:id/repository/commits/:sha/refs: branches then tags containing
// the commit, paged without totals.
func (h *handlers) refs(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	refType := "all"
	if v := b.Enum("type", "branch", "tag", "all"); v != nil {
		refType = *v
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.Refs(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"), refType, page)
	if err != nil {
		return err
	}
	returned := 0 // tells the header writer whether a next page exists
	if res.HasNext {
		returned = page.PerPage
	}
	httpx.SetPageHeaders(c, httpx.P(c).BaseURL, page, -1, returned)
	return httpx.OK(c, presenter.CommitRefs(res.Result.Items))
}

// sequence handles GET /projects/:id/repository/commits/:sha/sequence: {"count": n}.
func (h *handlers) sequence(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	firstParent := b.BoolDefault("first_parent", false)
	if err := b.Err(); err != nil {
		return err
	}
	n, err := h.svc.Sequence(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"), firstParent)
	if err != nil {
		return err
	}
	return httpx.OK(c, presenter.CommitSequence{Count: n})
}

// diff handles GET /projects/:id/repository/commits/:sha/diff: the changed files, paged with
// totals; unidiff=true adds the "---"/"+++" header lines.
func (h *handlers) diff(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	unidiff := b.BoolDefault("unidiff", false)
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.Diff(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, res, presenter.CommitDiff(res.Items, unidiff))
}
