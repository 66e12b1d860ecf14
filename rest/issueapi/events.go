package issueapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// stateEvents handles GET /projects/:id/issues/:issue_iid/resource_state_events.
func (h *handlers) stateEvents(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.issues.StateEvents(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).StateEvents(r.Items))
}

// labelEvents handles GET /projects/:id/issues/:issue_iid/resource_label_events.
func (h *handlers) labelEvents(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.issues.LabelEvents(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).LabelEvents(r.Items))
}

// milestoneEvents handles GET /projects/:id/issues/:issue_iid/resource_milestone_events.
func (h *handlers) milestoneEvents(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.issues.MilestoneEvents(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MilestoneEvents(r.Items))
}

// labelEvent handles GET /projects/:id/issues/:issue_iid/resource_label_events/:resource_label_event_id.
func (h *handlers) labelEvent(c *gin.Context) error {
	e, err := h.issues.LabelEvent(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "issue_iid"), httpx.PathParam(c, "resource_label_event_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).LabelEvent(e))
}
