// Package mrevents records the activity events of merge requests (a mergerequests.Observer),
// apart from the events package for the same reason as issueevents: the merge request
// service it observes is built on services that record events themselves.
package mrevents

import (
	"context"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/wire"
)

// Observer records the activity of merge requests as GitLab's EventCreateService does: their
// creation ("opened"), closing, reopening and merging ("accepted"). Edits record no event;
// they keep the title the events show current. A deleted merge request takes its events with
// it.
type Observer struct{ client *ent.Client }

// New returns the observer, to be listed among the merge request service's observers.
func New(client *ent.Client) *Observer {
	wire.Require("mrevents", wire.D("client", client))
	return &Observer{client: client}
}

// MergeRequestChanged records the event of ch inside its transaction.
func (o *Observer) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	c := db.ClientFrom(ctx, o.client)
	if ch.Action == mergerequests.ActionDestroyed {
		_, err := c.Event.Delete().Where(event.TargetType(events.TargetMergeRequest), event.TargetID(ch.Before.ID)).Exec(ctx)
		return err
	}
	mr := ch.After
	if ch.Before != nil && ch.Before.Title != mr.Title {
		err := c.Event.Update().Where(event.TargetType(events.TargetMergeRequest), event.TargetID(mr.ID)).
			SetTargetTitle(mr.Title).Exec(ctx)
		if err != nil {
			return err
		}
	}
	switch ch.Action {
	case mergerequests.ActionCreated, mergerequests.ActionClosed, mergerequests.ActionReopened, mergerequests.ActionMerged:
		if actor.IsAnonymous() {
			return nil
		}
		return events.Record(ctx, o.client, events.Entry{Action: event.Action(ch.Action), AuthorID: actor.UserID(),
			ProjectID: &mr.ProjectID, Target: &events.Target{Type: events.TargetMergeRequest, ID: mr.ID, IID: &mr.Iid, Title: mr.Title}})
	}
	return nil
}
