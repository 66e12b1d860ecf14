package events

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// query starts a listing: the events matching p, among those where.
func (s *Service) query(ctx context.Context, p ListParams, where ...predicate.Event) *ent.EventQuery {
	q := db.ClientFrom(ctx, s.client).Event.Query().Where(where...)
	if p.Action != "" {
		q.Where(event.ActionEQ(event.Action(p.Action)))
	}
	if t, ok := targetTypes[p.TargetType]; ok {
		q.Where(event.TargetType(t))
	}
	if p.Before != nil {
		q.Where(event.CreatedAtLT(startOfDay(*p.Before)))
	}
	if p.After != nil {
		q.Where(event.CreatedAtGTE(startOfDay(*p.After).AddDate(0, 0, 1)))
	}
	return q
}

// startOfDay is the first instant of t's day in UTC.
func startOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// visibleTo selects the events actor may see, as GitLab's Event#visible_to_user? decides per
// kind, written as predicates over the actor's scope: an event belongs to a project the actor
// can read (events without a project — group events — are not listed, as in GitLab's API), and
// a push also needs the project's code (download_code: the repository feature, Reporter in a
// private project). The kinds to come (issues, merge requests, notes, milestones, snippets)
// add their term here: the feature's access level, confidentiality.
func visibleTo(actor *authz.Actor, scope *authz.Scope) predicate.Event {
	readable := event.ProjectIDNotNil()
	if !actor.IsAdmin() {
		readable = inProjects(authz.VisibleProjectsIn(actor, scope))
	}
	code := inProjects(authz.CodeReadableProjectsIn(actor, scope))
	return event.And(readable, event.Or(event.ActionNEQ(event.ActionPushed), code))
}

// inProjects keeps events whose project matches where, through an uncorrelated subquery
// (db.In: evaluated once on both databases).
func inProjects(where predicate.Project) predicate.Event {
	return predicate.Event(db.In(event.FieldProjectID, project.Table, project.FieldID, func(s *sql.Selector) { where(s) }))
}
