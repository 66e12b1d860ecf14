package todos

import (
	"context"

	"anvil/ent"
	"anvil/ent/todo"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// Approvers names the approvers of a merge request (the approvals service's ApproverIDs).
type Approvers interface {
	ApproverIDs(ctx context.Context, mr *ent.MergeRequest) ([]int, error)
}

// UseApprovers gives the recorder the approvals service, which is built after the merge request
// service the recorder observes; until then no "approval_required" to-dos are made.
func (r *Recorder) UseApprovers(a Approvers) { r.approvers = a }

// approvalTodos creates the "approval_required" to-dos of a merge request change, as GitLab
// (Premium) does: on creation for every approver its rules name, and on an update for the
// approvers it gained (a new target branch brings other project rules); only approvers who may
// read it, and by its author. Closed and merged merge requests get none.
func (r *Recorder) approvalTodos(ctx context.Context, c *ent.Client, ch mergerequests.Change, t Target) error {
	mr := ch.After
	if r.approvers == nil || mr.State != "opened" || mr.AuthorID == nil {
		return nil
	}
	if ch.Action != mergerequests.ActionCreated && (ch.Action != mergerequests.ActionUpdated || ch.Before == nil ||
		ch.Before.TargetBranch == mr.TargetBranch) {
		return nil
	}
	ids, err := r.approvers.ApproverIDs(ctx, mr)
	if err != nil || len(ids) == 0 {
		return err
	}
	if ch.Action == mergerequests.ActionUpdated {
		old, err := r.approvers.ApproverIDs(ctx, ch.Before)
		if err != nil {
			return err
		}
		if ids = newLinks(old, ids); len(ids) == 0 {
			return nil
		}
	}
	us, err := c.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return err
	}
	var readers []int
	for _, u := range us {
		ok, err := t.Readable(ctx, u)
		if err != nil {
			return err
		}
		if ok {
			readers = append(readers, u.ID)
		}
	}
	author := &authz.Actor{User: &ent.User{ID: *mr.AuthorID}}
	return r.create(ctx, c, author, t, todo.ActionApprovalRequired, readers, nil)
}

// MergeRequestApproved marks the approver's pending to-dos on the merge request done, in the
// approval's transaction (GitLab resolves them all when the user approves).
func (r *Recorder) MergeRequestApproved(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) error {
	return r.resolve(ctx, db.ClientFrom(ctx, r.client), actor.UserID(), Target{Type: TargetMergeRequest, ID: mr.ID})
}
