package mergerequestapi

import (
	"net/http"

	"anvil/internal/service/mergerequests"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// idList reads assignee_ids-style parameters; given but empty is an empty (clearing) list,
// nil when not given.
func idList(b *params.Binder, name string) []int {
	if !b.Has(name) {
		return nil
	}
	ids := b.Ints(name)
	if ids == nil {
		ids = []int{}
	}
	return ids
}

// assignees reads assignee_ids (or the older assignee_id; 0 unassigns); nil when neither.
func assignees(b *params.Binder) []int {
	if b.Has("assignee_ids") {
		return idList(b, "assignee_ids")
	}
	if b.Has("assignee_id") {
		if id := b.Int("assignee_id"); id != nil && *id != 0 {
			return []int{*id}
		}
		return []int{}
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

// allowCollaboration reads allow_collaboration, or its older name allow_maintainer_to_push.
func allowCollaboration(b *params.Binder) *bool {
	if b.Has("allow_collaboration") {
		return b.Bool("allow_collaboration")
	}
	return b.Bool("allow_maintainer_to_push")
}

// create handles POST /projects/:id/merge_requests.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.Require("source_branch", "target_branch", "title")
	in := mergerequests.CreateInput{
		SourceBranch: b.StringDefault("source_branch", ""), TargetBranch: b.StringDefault("target_branch", ""),
		Title: b.StringDefault("title", ""), Description: b.String("description"),
		TargetProjectID: b.Int("target_project_id"), AssigneeIDs: assignees(b), ReviewerIDs: idList(b, "reviewer_ids"),
		Labels: labelsParam(b, "labels"), MilestoneID: b.Int("milestone_id"),
		RemoveSourceBranch: b.Bool("remove_source_branch"), Squash: b.Bool("squash"),
		AllowCollaboration: allowCollaboration(b), ApprovalsBeforeMerge: b.Int("approvals_before_merge"),
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	mr, err := h.mrs.Create(ctx, actor, httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	// Read back as the caller sees it: the target project's level decides the details.
	found, level, err := h.mrs.FindIn(ctx, actor, mr)
	if err != nil {
		return err
	}
	o, err := h.single(c, b, found, level, false)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).MergeRequest(found, o))
}

// updateParams are the parameters of which an update needs at least one (GitLab's
// at_least_one_of on PUT).
var updateParams = []string{"assignee_id", "assignee_ids", "reviewer_ids", "description", "labels", "add_labels",
	"remove_labels", "milestone_id", "remove_source_branch", "allow_collaboration", "allow_maintainer_to_push",
	"squash", "target_branch", "title", "state_event", "discussion_locked"}

// update handles PUT /projects/:id/merge_requests/:merge_request_iid.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOneKey(updateParams...)
	in := mergerequests.UpdateInput{
		Title: b.String("title"), Description: b.String("description"), TargetBranch: b.String("target_branch"),
		StateEvent: b.Enum("state_event", "close", "reopen"), AssigneeIDs: assignees(b),
		ReviewerIDs: idList(b, "reviewer_ids"), MilestoneID: b.Int("milestone_id"), Labels: labelsParam(b, "labels"),
		AddLabels: labelsParam(b, "add_labels"), RemoveLabels: labelsParam(b, "remove_labels"),
		DiscussionLocked: b.Bool("discussion_locked"), RemoveSourceBranch: b.Bool("remove_source_branch"),
		Squash: b.Bool("squash"), AllowCollaboration: allowCollaboration(b),
	}
	if b.Has("milestone_id") && in.MilestoneID == nil {
		zero := 0 // milestone_id= or null unsets the milestone
		in.MilestoneID = &zero
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	mr, err := h.mrs.Update(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), in)
	if err != nil {
		return err
	}
	found, level, err := h.mrs.FindIn(ctx, actor, mr)
	if err != nil {
		return err
	}
	o, err := h.single(c, b, found, level, false)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).MergeRequest(found, o))
}

// delete handles DELETE /projects/:id/merge_requests/:merge_request_iid (Owners and
// administrators).
func (h *handlers) delete(c *gin.Context) error {
	if err := h.mrs.Delete(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid")); err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// subscribe handles POST .../subscribe and .../unsubscribe: 201 with the merge request, 304
// when the caller's subscription was already so.
func (h *handlers) subscribe(on bool) httpx.Handler {
	return func(c *gin.Context) error {
		ctx, actor := c.Request.Context(), httpx.Actor(c)
		mr, level, changed, err := h.mrs.Subscribe(ctx, actor, httpx.PathParam(c, "id"), httpx.PathParam(c, "merge_request_iid"), on)
		if err != nil {
			return err
		}
		if !changed {
			c.Status(http.StatusNotModified)
			return nil
		}
		o, err := h.single(c, nil, mr, level, false)
		if err != nil {
			return err
		}
		return httpx.Created(c, httpx.P(c).MergeRequest(mr, o))
	}
}
