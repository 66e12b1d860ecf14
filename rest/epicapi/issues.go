package epicapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// issues handles GET /groups/:id/epics/:epic_iid/issues.
func (h *handlers) issues(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.epics.Issues(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r.Result, httpx.P(c).EpicIssues(r.Items, r.LinkIDs))
}

// assignIssue handles POST /groups/:id/epics/:epic_iid/issues/:issue_id (the issue's global id).
func (h *handlers) assignIssue(c *gin.Context) error {
	l, err := h.epics.AssignIssue(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), httpx.PathParam(c, "issue_id"))
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).EpicIssueLink(l))
}

// removeIssue handles DELETE /groups/:id/epics/:epic_iid/issues/:epic_issue_id (the link's id).
func (h *handlers) removeIssue(c *gin.Context) error {
	l, err := h.epics.RemoveIssue(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), httpx.PathParam(c, "issue_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).EpicIssueLink(l))
}
