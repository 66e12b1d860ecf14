package repositoryapi

import (
	"anvil/internal/service/repofiles"
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// tree handles GET /projects/:id/repository/tree: offset pages with totals by default,
// keyset pages with pagination=keyset (Link rel="next" carries page_token), or everything with
// pagination=none and recursive=true.
func (h *handlers) tree(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := repofiles.TreeParams{
		Ref:        b.StringDefault("ref", ""),
		Path:       b.StringDefault("path", ""),
		Recursive:  b.BoolDefault("recursive", false),
		Pagination: repofiles.TreeLegacy,
		Page:       httpx.Offset(b),
	}
	if v := b.Enum("pagination", repofiles.TreeLegacy, repofiles.TreeKeyset, repofiles.TreeNone); v != nil {
		p.Pagination = *v
	}
	if p.Pagination == repofiles.TreeKeyset {
		p.PageToken = b.StringDefault("page_token", "")
	}
	if err := b.Err(); err != nil {
		return err
	}
	res, err := h.svc.Tree(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), p)
	if err != nil {
		return err
	}
	if p.Pagination != repofiles.TreeNone {
		httpx.SetPage(c, httpx.P(c).BaseURL, res)
	}
	return httpx.OK(c, presenter.TreeEntries(res.Items))
}
