package epicapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// labelEvents handles GET /groups/:id/epics/:epic_iid/resource_label_events.
func (h *handlers) labelEvents(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.epics.LabelEvents(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).LabelEvents(r.Items))
}

// labelEvent handles GET /groups/:id/epics/:epic_iid/resource_label_events/:resource_label_event_id.
func (h *handlers) labelEvent(c *gin.Context) error {
	e, err := h.epics.LabelEvent(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), httpx.PathParam(c, "resource_label_event_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).LabelEvent(e))
}
