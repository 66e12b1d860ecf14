package epicapi

import (
	"anvil/internal/service/epics"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// get handles GET /groups/:id/epics/:epic_iid.
func (h *handlers) get(c *gin.Context) error {
	v, err := h.epics.Get(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid"))
	if err != nil {
		return err
	}
	// GitLab's subscribed: the author follows an epic from its creation (no explicit
	// subscriptions to epics are kept here).
	actor := httpx.Actor(c)
	subscribed := !actor.IsAnonymous() && v.Epic.AuthorID != nil && *v.Epic.AuthorID == actor.UserID()
	return httpx.OK(c, httpx.P(c).Epic(v, presenter.EpicOptions{Subscribed: &subscribed}))
}

// input reads the epic attributes of POST and PUT; start_date and end_date are GitLab's
// deprecated names of start_date_fixed and due_date_fixed.
func input(b *params.Binder) epics.Input {
	in := epics.Input{
		Title: b.String("title"), Description: b.NullableString("description"), Color: b.String("color"),
		Confidential: b.Bool("confidential"), StartDateFixed: b.NullableDate("start_date_fixed"),
		StartDateIsFixed: b.Bool("start_date_is_fixed"), DueDateFixed: b.NullableDate("due_date_fixed"),
		DueDateIsFixed: b.Bool("due_date_is_fixed"), Labels: labelList(b, "labels"), ParentID: b.Int("parent_id"),
	}
	if !in.StartDateFixed.Given() {
		in.StartDateFixed = b.NullableDate("start_date")
	}
	if !in.DueDateFixed.Given() {
		in.DueDateFixed = b.NullableDate("end_date")
	}
	return in
}

// create handles POST /groups/:id/epics.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("title")
	in := input(b)
	in.CreatedAt = b.Time("created_at")
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.epics.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Epic(v, presenter.EpicOptions{}))
}

// updatable are PUT's attributes, one of which must be given.
var updatable = []string{"add_labels", "color", "confidential", "description", "due_date_fixed", "due_date_is_fixed",
	"labels", "parent_id", "remove_labels", "start_date_fixed", "start_date_is_fixed", "state_event", "title",
	"start_date", "end_date"}

// update handles PUT /groups/:id/epics/:epic_iid.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOne(updatable...)
	in := input(b)
	in.AddLabels, in.RemoveLabels = labelList(b, "add_labels"), labelList(b, "remove_labels")
	in.StateEvent = b.Enum("state_event", "reopen", "close")
	in.UpdatedAt = b.Time("updated_at")
	if err := b.Err(); err != nil {
		return err
	}
	v, err := h.epics.Update(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Epic(v, presenter.EpicOptions{}))
}

// delete handles DELETE /groups/:id/epics/:epic_iid.
func (h *handlers) delete(c *gin.Context) error {
	if err := h.epics.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "epic_iid")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
