package issues

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/resourceevents"
)

// recorder writes an issue's resource events (resourceevents) in the change's transaction;
// applying the labels themselves is part of recording their addition.
type recorder struct {
	c     *ent.Client
	actor *authz.Actor
	issue *ent.Issue
}

// events is the issue's resource event recorder.
func (r recorder) events() resourceevents.Recorder {
	return resourceevents.Recorder{C: r.c, Actor: r.actor, Of: resourceevents.Issue(r.issue.ID)}
}

// state records a close or a reopen, and what caused it (src; zero for a direct edit).
func (r recorder) state(ctx context.Context, state string, src resourceevents.Source) error {
	return r.events().State(ctx, state, src)
}

// labels links the added labels and records both lists (the removed links are the caller's).
func (r recorder) labels(ctx context.Context, added, removed []*ent.Label) error {
	for _, l := range added {
		if err := r.c.IssueLabel.Create().SetIssueID(r.issue.ID).SetLabelID(l.ID).Exec(ctx); err != nil {
			return err
		}
	}
	return r.events().Labels(ctx, added, removed)
}

// milestone records the milestone set (added) or removed.
func (r recorder) milestone(ctx context.Context, added, removed *ent.Milestone) error {
	return r.events().Milestone(ctx, added, removed, string(r.issue.State))
}
