package issues

import (
	"context"

	"anvil/ent"
	"anvil/ent/resourcemilestoneevent"
	"anvil/ent/resourcestateevent"
	"anvil/internal/authz"
	"anvil/internal/service/resourceevents"
)

// recorder writes an issue's resource events (GitLab's resource_state_events,
// resource_label_events, resource_milestone_events) in the change's transaction; applying the
// labels themselves is part of recording their addition.
type recorder struct {
	c     *ent.Client
	actor *authz.Actor
	issue *ent.Issue
}

func (r recorder) userID() *int {
	if r.actor.IsAnonymous() {
		return nil
	}
	id := r.actor.UserID()
	return &id
}

// state records a close or a reopen.
func (r recorder) state(ctx context.Context, state string) error {
	return r.c.ResourceStateEvent.Create().SetIssuableType(resourcestateevent.IssuableTypeIssue).
		SetIssueID(r.issue.ID).SetNillableUserID(r.userID()).SetState(resourcestateevent.State(state)).Exec(ctx)
}

// labels links the added labels and records both lists (the removed links are the caller's).
func (r recorder) labels(ctx context.Context, added, removed []*ent.Label) error {
	for _, l := range added {
		if err := r.c.IssueLabel.Create().SetIssueID(r.issue.ID).SetLabelID(l.ID).Exec(ctx); err != nil {
			return err
		}
	}
	return resourceevents.RecordLabels(ctx, r.c, resourceevents.Issue(r.issue.ID), r.userID(), added, removed)
}

// milestone records the milestone set (added) or removed.
func (r recorder) milestone(ctx context.Context, added, removed *ent.Milestone) error {
	ms, action := added, resourcemilestoneevent.ActionAdd
	if added == nil {
		ms, action = removed, resourcemilestoneevent.ActionRemove
	}
	return r.c.ResourceMilestoneEvent.Create().SetIssuableType(resourcemilestoneevent.IssuableTypeIssue).
		SetIssueID(r.issue.ID).SetNillableUserID(r.userID()).SetAction(action).SetMilestoneID(ms.ID).
		SetState(resourcemilestoneevent.State(r.issue.State)).Exec(ctx)
}
