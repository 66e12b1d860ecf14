package mergerequestapi

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// participants handles GET .../participants: the users taking part, one offset page of them
// as GitLab pages the array (Kaminari.paginate_array).
func (h *handlers) participants(c *gin.Context) error {
	page, err := offsetPage(c)
	if err != nil {
		return err
	}
	all, err := h.mrs.Participants(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	if err != nil {
		return err
	}
	r := pageOf(all, page)
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).UserBasics(r.Items))
}

// reviewers handles GET .../reviewers: the review requests with their states, one offset page
// of them as GitLab pages the array.
func (h *handlers) reviewers(c *gin.Context) error {
	page, err := offsetPage(c)
	if err != nil {
		return err
	}
	all, err := h.mrs.Reviewers(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	if err != nil {
		return err
	}
	r := pageOf(all, page)
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequestReviewers(r.Items))
}

// offsetPage binds page and per_page.
func offsetPage(c *gin.Context) (pagination.Offset, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return pagination.Offset{}, err
	}
	page := httpx.Offset(b)
	return page, b.Err()
}

// pageOf cuts one offset page out of a whole list.
func pageOf[T any](all []T, page pagination.Offset) pagination.Result[T] {
	items := all[min(page.Skip(), len(all)):min(page.Skip()+page.Limit(), len(all))]
	return pagination.OffsetResult(items, len(all), page)
}

// closesIssues handles GET .../closes_issues.
func (h *handlers) closesIssues(c *gin.Context) error {
	return h.issueList(c, h.mrs.ClosesIssues)
}

// relatedIssues handles GET .../related_issues.
func (h *handlers) relatedIssues(c *gin.Context) error {
	return h.issueList(c, h.mrs.RelatedIssues)
}

// issueList answers a paginated list of the issues find returns.
func (h *handlers) issueList(c *gin.Context, find func(context.Context, *authz.Actor, string, string) ([]*ent.Issue, error)) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	all, err := find(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"))
	if err != nil {
		return err
	}
	items := all[min(page.Skip(), len(all)):min(page.Skip()+page.Limit(), len(all))]
	r := pagination.OffsetResult(items, len(all), page)
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Issues(r.Items, false))
}
