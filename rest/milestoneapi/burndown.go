package milestoneapi

import (
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
)

// burndownEvents handles GET .../milestones/:milestone_id/burndown_events: the whole list,
// unpaginated, as GitLab presents it.
func (h *handlers) burndownEvents(c *gin.Context) error {
	evs, err := h.milestones.BurndownEvents(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).BurndownEvents(evs))
}
