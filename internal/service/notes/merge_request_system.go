package notes

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/mergerequests"
)

// MergeRequestObserver writes the system notes of merge request changes in the change's
// transaction, in GitLab's words (SystemNotes::IssuablesService and
// MergeRequestsService): title, draft status, description, target branch, discussion lock,
// assignees and reviewers, and "mentioned in merge request !N" on the issues its description
// references. State, label and milestone changes are resource events (resourceevents), not
// notes, as for issues. When a merge request is destroyed its notes go with it.
type MergeRequestObserver struct{ notes *Service }

// NewMergeRequestObserver returns the observer that writes merge requests' system notes.
func NewMergeRequestObserver(s *Service) MergeRequestObserver { return MergeRequestObserver{notes: s} }

// MergeRequestChanged writes the system notes of one merge request change.
func (o MergeRequestObserver) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	if ch.Action == mergerequests.ActionDestroyed {
		return o.notes.DeleteFor(ctx, &Target{Type: TypeMergeRequest, ID: ch.Before.ID})
	}
	mr := ch.After
	if mr == nil {
		return nil
	}
	if ch.Before == nil || str(ch.Before.Description) != str(mr.Description) {
		src := refSource{typ: TypeMergeRequest, iid: mr.Iid, projectID: mr.ProjectID}
		if err := o.notes.crossReference(ctx, actor, src, mr.Title+"\n"+str(mr.Description)); err != nil {
			return err
		}
	}
	if ch.Before == nil {
		return nil // created: no system note for the merge request's own creation
	}
	t := MergeRequestTarget(actor, authz.NoAccess, mr)
	var author *int
	if !actor.IsAnonymous() {
		id := actor.UserID()
		author = &id
	}
	for _, body := range mergeRequestChanges(ch.Action, ch.Before, mr) {
		if err := o.notes.AddSystem(ctx, t, author, body); err != nil {
			return err
		}
	}
	return nil
}

// mergeRequestChanges are the system note bodies of a change, in GitLab's order.
func mergeRequestChanges(action string, before, after *ent.MergeRequest) []string {
	var out []string
	if before.Draft != after.Draft {
		state := "ready"
		if after.Draft {
			state = "draft"
		}
		out = append(out, "marked this merge request as **"+state+"**")
	}
	if mergerequests.DraftlessTitle(before.Title) != mergerequests.DraftlessTitle(after.Title) {
		out = append(out, TitleChange(before.Title, after.Title))
	}
	if str(before.Description) != str(after.Description) {
		out = append(out, "changed the description")
	}
	if before.TargetBranch != after.TargetBranch {
		out = append(out, "changed target branch from `"+before.TargetBranch+"` to `"+after.TargetBranch+"`")
	}
	if mrLocked(before) != mrLocked(after) {
		if mrLocked(after) {
			out = append(out, "locked the discussion in this merge request")
		} else {
			out = append(out, "unlocked the discussion in this merge request")
		}
	}
	if body := peopleChange(mrAssignees(before), mrAssignees(after), "assigned to ", "unassigned "); body != "" {
		out = append(out, body)
	}
	if body := peopleChange(mrReviewers(before), mrReviewers(after), "requested review from ", "removed review request for "); body != "" {
		out = append(out, body)
	}
	return out
}

func mrLocked(mr *ent.MergeRequest) bool { return mr.DiscussionLocked != nil && *mr.DiscussionLocked }

// peopleChange is "<add>@a and @b and <remove>@c" (either part alone), or "".
func peopleChange(old, cur []string, add, remove string) string {
	var added, removed []string
	for _, u := range cur {
		if !contains(old, u) {
			added = append(added, "@"+u)
		}
	}
	for _, u := range old {
		if !contains(cur, u) {
			removed = append(removed, "@"+u)
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, add+sentence(added))
	}
	if len(removed) > 0 {
		parts = append(parts, remove+sentence(removed))
	}
	return strings.Join(parts, " and ")
}

func mrAssignees(mr *ent.MergeRequest) []string {
	var out []string
	for _, a := range mr.Edges.AssigneeLinks {
		if u := a.Edges.User; u != nil {
			out = append(out, u.Username)
		}
	}
	return out
}

func mrReviewers(mr *ent.MergeRequest) []string {
	var out []string
	for _, r := range mr.Edges.ReviewerLinks {
		if u := r.Edges.User; u != nil {
			out = append(out, u.Username)
		}
	}
	return out
}
