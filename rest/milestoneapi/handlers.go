package milestoneapi

import (
	"net/http"

	"anvil/internal/filter"
	"anvil/internal/service/milestones"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// owner is the route's project or group.
func (h *handlers) owner(c *gin.Context) milestones.Owner {
	return milestones.Owner{Group: h.group, Ref: httpx.PathParam(c, "id")}
}

// list handles GET .../milestones.
func (h *handlers) list(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	p := milestones.ListParams{
		IIDs: b.Ints("iids"), Title: b.String("title"), Search: b.StringDefault("search", ""),
		Updated: filter.Range{After: b.Time("updated_after"), Before: b.Time("updated_before")},
	}
	if s := b.Enum("state", "active", "closed", "all"); s != nil {
		p.State = *s
	}
	if b.Has("include_parent_milestones") && b.Has("include_ancestors") {
		b.Fail("include_ancestors, include_parent_milestones are mutually exclusive")
	}
	p.IncludeAncestors = b.BoolDefault("include_ancestors", false) || b.BoolDefault("include_parent_milestones", false)
	if h.group {
		p.SearchTitle = b.StringDefault("search_title", "")
		p.IncludeDescendants = b.BoolDefault("include_descendants", false)
		p.ContainingDate = b.Time("containing_date")
		p.StartDate, p.EndDate = b.Time("start_date"), b.Time("end_date")
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.milestones.List(c.Request.Context(), httpx.Actor(c), h.owner(c), p, page)
	if err != nil {
		return err
	}
	out := make([]any, 0, len(r.Items))
	for _, m := range r.Items {
		out = append(out, httpx.P(c).Milestone(m, r.OwnerPaths[m.ID]))
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r.Result, out)
}

// get handles GET .../milestones/:milestone_id.
func (h *handlers) get(c *gin.Context) error {
	m, path, err := h.milestones.Get(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Milestone(m, path))
}

// input reads the milestone attributes of POST and PUT. A date sent empty or as JSON null, and
// a description sent as null, clear the attribute (python-gitlab's save() sends null for an
// attribute set to None).
func input(b *params.Binder) milestones.Input {
	due, start, desc := b.NullableDate("due_date"), b.NullableDate("start_date"), b.NullableString("description")
	return milestones.Input{Title: b.String("title"), Description: desc.Ptr(), ClearDescription: desc.IsNull(),
		DueDate: due.Ptr(), StartDate: start.Ptr(), ClearDueDate: due.IsNull(), ClearStartDate: start.IsNull()}
}

// create handles POST .../milestones.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("title")
	in := input(b)
	if err := b.Err(); err != nil {
		return err
	}
	m, path, err := h.milestones.Create(c.Request.Context(), httpx.Actor(c), h.owner(c), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Milestone(m, path))
}

// update handles PUT .../milestones/:milestone_id.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := input(b)
	in.StateEvent = b.Enum("state_event", "close", "activate")
	b.RequireOneKey("title", "description", "start_date", "due_date", "state_event")
	if err := b.Err(); err != nil {
		return err
	}
	m, path, err := h.milestones.Update(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Milestone(m, path))
}

// delete handles DELETE .../milestones/:milestone_id.
func (h *handlers) delete(c *gin.Context) error {
	if err := h.milestones.Delete(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// listIssues handles GET .../milestones/:milestone_id/issues.
func (h *handlers) listIssues(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.milestones.Issues(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).Issues(r.Items, false))
}

// listMergeRequests handles GET .../milestones/:milestone_id/merge_requests.
func (h *handlers) listMergeRequests(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	r, err := h.milestones.MergeRequests(c.Request.Context(), httpx.Actor(c), h.owner(c), httpx.PathParam(c, "milestone_id"), page)
	if err != nil {
		return err
	}
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequests(r.Items, presenter.MergeRequestOptions{}))
}

// promote handles POST /projects/:id/milestones/:milestone_id/promote: 200 without a body, as
// GitLab answers.
func (h *handlers) promote(c *gin.Context) error {
	if _, err := h.milestones.Promote(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "milestone_id")); err != nil {
		return err
	}
	c.Status(http.StatusOK)
	c.Writer.WriteHeaderNow()
	return nil
}
