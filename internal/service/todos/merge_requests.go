package todos

import (
	"context"
	"slices"

	"anvil/ent"
	"anvil/ent/todo"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// MergeRequestTarget is the merge request as a to-do's target: readable with
// read_merge_request in its project. mr must be loaded with mergerequests.Load.
func (r *Recorder) MergeRequestTarget(mr *ent.MergeRequest) Target {
	proj := mr.Edges.Project
	return Target{Type: TargetMergeRequest, ID: mr.ID, ProjectID: &mr.ProjectID,
		Readable: func(ctx context.Context, u *ent.User) (bool, error) {
			a := &authz.Actor{User: u}
			level, readable, err := r.policy.ProjectLevel(ctx, a, proj)
			if err != nil || !readable {
				return false, err
			}
			return authz.CanProject(a, proj, level, authz.ReadMergeRequest), nil
		}, Team: r.projectTeam(proj)}
}

// MergeRequestChanged creates and resolves the to-dos of a merge request change, as GitLab's
// TodoService does: new assignees get "assigned" to-dos, new reviewers "review_requested"
// ones, and users newly mentioned in the title or description who may read it "mentioned" or
// "directly_addressed" ones; an edit marks the editor's own pending to-dos on it done, and so
// do closing and merging; the approvers its rules name get "approval_required" ones
// (approvals.go); deleting it removes all of its to-dos.
func (r *Recorder) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	c := db.ClientFrom(ctx, r.client)
	if ch.Action == mergerequests.ActionDestroyed {
		_, err := c.Todo.Delete().Where(todo.TargetType(TargetMergeRequest), todo.TargetID(ch.Before.ID)).Exec(ctx)
		return err
	}
	if actor.IsAnonymous() {
		return nil
	}
	mr, before := ch.After, ch.Before
	t := r.MergeRequestTarget(mr)
	if before != nil && mergeRequestEdited(before, mr) {
		if err := r.resolve(ctx, c, actor.UserID(), t); err != nil {
			return err
		}
	}
	if added := newLinks(mrAssigneeIDs(before), mrAssigneeIDs(mr)); len(added) > 0 {
		if err := r.create(ctx, c, actor, t, todo.ActionAssigned, added, nil); err != nil {
			return err
		}
	}
	if added := newLinks(mrReviewerIDs(before), mrReviewerIDs(mr)); len(added) > 0 {
		if err := r.create(ctx, c, actor, t, todo.ActionReviewRequested, added, nil); err != nil {
			return err
		}
	}
	var skip []string
	if before != nil {
		skip = ParseMentions(mergeRequestText(before)).All()
	}
	if err := r.mentions(ctx, c, actor, t, mergeRequestText(mr), nil, skip); err != nil {
		return err
	}
	if err := r.approvalTodos(ctx, c, ch, t); err != nil {
		return err
	}
	if ch.Action == mergerequests.ActionClosed || ch.Action == mergerequests.ActionMerged {
		return r.resolve(ctx, c, actor.UserID(), t)
	}
	return nil
}

// mergeRequestText is the mentionable text of a merge request: its title and description.
func mergeRequestText(mr *ent.MergeRequest) string {
	return mr.Title + "\n" + deref(mr.Description)
}

// mergeRequestEdited reports a change GitLab counts as the editor attending to the merge
// request: title, description, milestone, labels, assignees or reviewers.
func mergeRequestEdited(before, after *ent.MergeRequest) bool {
	if before.Title != after.Title || deref(before.Description) != deref(after.Description) ||
		!equalPtr(before.MilestoneID, after.MilestoneID) {
		return true
	}
	labels := func(mr *ent.MergeRequest) []int {
		ids := make([]int, 0, len(mr.Edges.LabelLinks))
		for _, l := range mr.Edges.LabelLinks {
			ids = append(ids, l.LabelID)
		}
		slices.Sort(ids)
		return ids
	}
	return !slices.Equal(labels(before), labels(after)) || !slices.Equal(mrAssigneeIDs(before), mrAssigneeIDs(after)) ||
		!slices.Equal(mrReviewerIDs(before), mrReviewerIDs(after))
}

// newLinks are the ids of cur not in old.
func newLinks(old, cur []int) []int {
	var out []int
	for _, id := range cur {
		if !slices.Contains(old, id) {
			out = append(out, id)
		}
	}
	return out
}

func mrAssigneeIDs(mr *ent.MergeRequest) []int {
	if mr == nil {
		return nil
	}
	ids := make([]int, 0, len(mr.Edges.AssigneeLinks))
	for _, a := range mr.Edges.AssigneeLinks {
		ids = append(ids, a.UserID)
	}
	slices.Sort(ids)
	return ids
}

func mrReviewerIDs(mr *ent.MergeRequest) []int {
	if mr == nil {
		return nil
	}
	ids := make([]int, 0, len(mr.Edges.ReviewerLinks))
	for _, r := range mr.Edges.ReviewerLinks {
		ids = append(ids, r.UserID)
	}
	slices.Sort(ids)
	return ids
}
