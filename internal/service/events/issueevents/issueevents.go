// Package issueevents records the activity events of issues (an issues.Observer). It sits
// apart from the events package because the issue service, which it observes, is built on
// services that record events themselves.
package issueevents

import (
	"context"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/issues"
	"anvil/internal/service/wire"
)

// Observer records the activity of issues as GitLab's EventCreateService does: an issue's
// creation ("opened"), closing and reopening. Edits record no event; they keep the title the
// events show current (GitLab reads it from the issue). A deleted issue takes its events with
// it: GitLab keeps them but shows them to nobody, their target being gone.
type Observer struct{ client *ent.Client }

// New returns the observer, to be listed among the issue service's observers.
func New(client *ent.Client) *Observer {
	wire.Require("issueevents", wire.D("client", client))
	return &Observer{client: client}
}

// IssueChanged records the event of ch inside its transaction.
func (o *Observer) IssueChanged(ctx context.Context, actor *authz.Actor, ch issues.Change) error {
	c := db.ClientFrom(ctx, o.client)
	if ch.Action == "destroyed" {
		_, err := c.Event.Delete().Where(event.TargetType(events.TargetIssue), event.TargetID(ch.Before.ID)).Exec(ctx)
		return err
	}
	is := ch.After
	if ch.Before != nil && ch.Before.Title != is.Title {
		err := c.Event.Update().Where(event.TargetType(events.TargetIssue), event.TargetID(is.ID)).
			SetTargetTitle(is.Title).Exec(ctx)
		if err != nil {
			return err
		}
	}
	switch ch.Action {
	case "created", "closed", "reopened":
		if actor.IsAnonymous() {
			return nil
		}
		return events.Record(ctx, o.client, events.Entry{Action: event.Action(ch.Action), AuthorID: actor.UserID(),
			ProjectID: &is.ProjectID, Target: &events.Target{Type: events.TargetIssue, ID: is.ID, IID: &is.Iid, Title: is.Title}})
	}
	return nil
}
