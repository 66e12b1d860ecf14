package repositoryapi

import (
	"net/url"

	"anvil/internal/service/repofiles"
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// compare handles GET /projects/:id/repository/compare.
func (h *handlers) compare(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("from", "to")
	p := repofiles.CompareParams{
		From: b.StringDefault("from", ""), To: b.StringDefault("to", ""),
		FromProjectID: b.Int("from_project_id"), Straight: b.BoolDefault("straight", false),
	}
	unidiff := b.BoolDefault("unidiff", false)
	if err := b.Err(); err != nil {
		return err
	}
	cmp, err := h.svc.Compare(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Comparison(cmp, unidiff))
}

// contributors handles GET /projects/:id/repository/contributors.
func (h *handlers) contributors(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := repofiles.ContributorParams{Ref: b.StringDefault("ref", ""), OrderBy: "commits", Sort: "asc", Page: httpx.Offset(b)}
	if v := b.Enum("order_by", "email", "name", "commits"); v != nil {
		p.OrderBy = *v
	}
	if v := b.Enum("sort", "asc", "desc"); v != nil {
		p.Sort = *v
	}
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.Contributors(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p)
	if err != nil {
		return err
	}
	// GitLab's page links carry the declared defaults of order_by and sort.
	q := c.Request.URL.Query()
	q.Set("order_by", p.OrderBy)
	q.Set("sort", p.Sort)
	c.Request.URL.RawQuery = url.Values(q).Encode()
	return httpx.Page(c, httpx.P(c).BaseURL, res, presenter.Contributors(res.Items))
}

// mergeBase handles GET /projects/:id/repository/merge_base.
func (h *handlers) mergeBase(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("refs")
	refs := b.Strings("refs")
	if err := b.Err(); err != nil {
		return err
	}
	proj, commit, err := h.svc.MergeBase(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), refs)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeBaseCommit(proj, commit))
}
