package issueapi

import (
	"net/http"

	"anvil/internal/pagination"
	"anvil/internal/service/issues"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

var issueTypes = []string{"issue", "incident", "test_case", "task"}

// assignees reads assignee_ids (or the older assignee_id); nil when neither is given.
func assignees(b *params.Binder) []int {
	if b.Has("assignee_ids") {
		ids := b.Ints("assignee_ids")
		if ids == nil {
			ids = []int{}
		}
		return ids
	}
	if id := b.Int("assignee_id"); id != nil {
		return []int{*id}
	}
	return nil
}

// labelsParam reads a label list; given but empty is an empty (clearing) list.
func labelsParam(b *params.Binder, name string) []string {
	if !b.Has(name) {
		return nil
	}
	ls := b.Strings(name)
	if ls == nil {
		ls = []string{}
	}
	return ls
}

// updateParams are the parameters of which an update needs at least one (GitLab's
// update_params_at_least_one_of, with Premium's weight and epic).
var updateParams = []string{"assignee_id", "assignee_ids", "confidential", "created_at", "description",
	"discussion_locked", "due_date", "labels", "add_labels", "remove_labels", "milestone_id", "state_event",
	"title", "issue_type", "weight", "epic_id", "epic_iid"}

// get handles GET /projects/:id/issues/:issue_iid.
func (h *handlers) get(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	is, _, err := h.issues.Find(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"))
	if err != nil {
		return err
	}
	subscribed, err := h.issues.Subscribed(ctx, actor, is)
	if err != nil {
		return err
	}
	out := httpx.P(c).Issue(is, b.BoolDefault("with_labels_details", false))
	out.Subscribed = &subscribed
	return httpx.OK(c, out)
}

// participants handles GET /projects/:id/issues/:issue_iid/participants: the users taking
// part, unpaginated as GitLab.
func (h *handlers) participants(c *gin.Context) error {
	users, err := h.issues.Participants(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).UserBasics(users))
}

// closedBy handles GET /projects/:id/issues/:issue_iid/closed_by: the open merge requests
// that close the issue when merged, paginated, in the merge request list shape.
func (h *handlers) closedBy(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	page := httpx.Offset(b)
	if err := b.Err(); err != nil {
		return err
	}
	all, err := h.mrs.ClosedBy(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"))
	if err != nil {
		return err
	}
	items := all[min(page.Skip(), len(all)):min(page.Skip()+page.Limit(), len(all))]
	r := pagination.OffsetResult(items, len(all), page)
	return httpx.Page(c, httpx.P(c).BaseURL, r, httpx.P(c).MergeRequests(r.Items, presenter.MergeRequestOptions{}))
}

// subscribe handles POST .../subscribe and .../unsubscribe: 201 with the issue, 304 when the
// caller's subscription was already so.
func (h *handlers) subscribe(on bool) httpx.Handler {
	return func(c *gin.Context) error {
		is, changed, err := h.issues.Subscribe(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"), on)
		if err != nil {
			return err
		}
		if !changed {
			c.Status(http.StatusNotModified)
			return nil
		}
		out := httpx.P(c).Issue(is, false)
		out.Subscribed = &on
		return httpx.Created(c, out)
	}
}

// getByID handles GET /issues/:id (administrators).
func (h *handlers) getByID(c *gin.Context) error {
	is, err := h.issues.FindByID(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"))
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Issue(is, false))
}

// create handles POST /projects/:id/issues.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("title")
	in := issues.CreateInput{
		Title: b.StringDefault("title", ""), Description: b.String("description"),
		Confidential: b.Bool("confidential"), IssueType: b.Enum("issue_type", issueTypes...),
		DueDate: b.Date("due_date"), AssigneeIDs: assignees(b), MilestoneID: b.Int("milestone_id"),
		Labels: labelsParam(b, "labels"), CreatedAt: b.Time("created_at"), Weight: b.Int("weight"),
	}
	if err := b.Err(); err != nil {
		return err
	}
	is, err := h.issues.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).Issue(is, false))
}

// update handles PUT /projects/:id/issues/:issue_iid.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOneKey(updateParams...)
	in := issues.UpdateInput{
		Title: b.String("title"), Description: b.String("description"), Confidential: b.Bool("confidential"),
		IssueType: b.Enum("issue_type", issueTypes...), StateEvent: b.Enum("state_event", "close", "reopen"),
		DueDate: b.Date("due_date"), DiscussionLocked: b.Bool("discussion_locked"), AssigneeIDs: assignees(b),
		MilestoneID: b.Int("milestone_id"), Labels: labelsParam(b, "labels"),
		AddLabels: labelsParam(b, "add_labels"), RemoveLabels: labelsParam(b, "remove_labels"),
		UpdatedAt: b.Time("updated_at"), Weight: b.NullableInt("weight"),
	}
	if b.Has("due_date") && in.DueDate == nil {
		in.ClearDueDate = true
	}
	if b.Has("milestone_id") && in.MilestoneID == nil {
		zero := 0 // milestone_id= or null unsets the milestone
		in.MilestoneID = &zero
	}
	if err := b.Err(); err != nil {
		return err
	}
	is, err := h.issues.Update(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).Issue(is, false))
}

// delete handles DELETE /projects/:id/issues/:issue_iid (Owners and administrators).
func (h *handlers) delete(c *gin.Context) error {
	if err := h.issues.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "issue_iid")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}
