package epicapi

import (
	"anvil/rest/httpx"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// children handles GET /groups/:id/epics/:epic_iid/epics: every child epic the caller may
// read (not paginated, as GitLab).
func (h *handlers) children(c *gin.Context) error {
	r, err := h.epics.Children(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Epics(r, presenter.EpicOptions{}))
}

// assignChild handles POST /groups/:id/epics/:epic_iid/epics/:child_epic_id.
func (h *handlers) assignChild(c *gin.Context) error {
	v, err := h.epics.AssignChild(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), httpx.PathParam(c, "child_epic_id"))
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Epic(v, presenter.EpicOptions{}))
}

// createChild handles POST /groups/:id/epics/:epic_iid/epics: a new epic under the parent,
// in GitLab's short LinkedEpic form.
func (h *handlers) createChild(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("title")
	title, confidential := b.StringDefault("title", ""), b.Bool("confidential")
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.epics.CreateChild(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), title, confidential)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).LinkedEpic(v.Epic))
}

// removeChild handles DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id: 200 with the
// detached child.
func (h *handlers) removeChild(c *gin.Context) error {
	v, err := h.epics.RemoveChild(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"),
		httpx.PathParam(c, "epic_iid"), httpx.PathParam(c, "child_epic_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Epic(v, presenter.EpicOptions{}))
}
