package mergerequestapi

import (
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
