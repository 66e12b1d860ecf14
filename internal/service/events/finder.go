package events

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/event"
	"anvil/ent/issue"
	"anvil/ent/issueassignee"
	"anvil/ent/note"
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
// can read (events without a project — group events — are not listed, as in GitLab's API); a
// push also needs the project's code (download_code: the repository feature, Reporter in a
// private project); an issue's events need its issues (read_issue: the issues feature, and a
// confidential issue only for Reporters, its author and its assignees); a milestone's need
// its issues or merge requests (read_milestone); a comment's need its issue, and an internal
// comment Reporter. The kinds to come (merge requests, snippets) add their term to
// targetRules.
func visibleTo(actor *authz.Actor, scope *authz.Scope) predicate.Event {
	readable := event.ProjectIDNotNil()
	if !actor.IsAdmin() {
		readable = inProjects(authz.VisibleProjectsIn(actor, scope))
	}
	code := inProjects(authz.CodeReadableProjectsIn(actor, scope))
	return event.And(readable, event.Or(event.ActionNEQ(event.ActionPushed), code), targetRules(actor, scope))
}

// targetRules are the terms of the targets' own rules: an event without a target, or of a kind
// without rules, passes; one of a kind with rules passes its kind's.
func targetRules(actor *authz.Actor, scope *authz.Scope) predicate.Event {
	issues := authz.FeatureAvailableIn(actor, scope, authz.FeatureIssues)
	issueRule := inProjects(issues)
	if hidden, ok := hiddenConfidentialIssues(actor, scope); ok {
		issueRule = event.And(issueRule, predicate.Event(notIn(event.FieldTargetID, issue.Table, issue.FieldID, hidden)))
	}
	milestoneRule := inProjects(project.Or(issues, authz.FeatureAvailableIn(actor, scope, authz.FeatureMergeRequests)))
	noteRule := predicate.Event(notIn(event.FieldTargetID, note.Table, note.FieldID, hiddenNotes(actor, scope, issues)))
	return event.Or(
		event.TargetTypeIsNil(),
		event.TargetTypeNotIn(TargetIssue, TargetMilestone, TargetNote),
		event.And(event.TargetType(TargetIssue), issueRule),
		event.And(event.TargetType(TargetMilestone), milestoneRule),
		event.And(event.TargetType(TargetNote), event.TargetIDNotNil(), noteRule),
	)
}

// hiddenNotes selects the comments whose "commented on" events the actor may not see, in the
// projects it reads: comments on issues it may not read (the issues feature unavailable to it,
// or a confidential issue it may not read), on commits whose code it may not read, on merge
// requests whose feature is unavailable to it, and internal comments where it is not a Reporter.
// Like hiddenConfidentialIssues, a small set to exclude rather than every comment to join.
func hiddenNotes(actor *authz.Actor, scope *authz.Scope, issuesAvailable predicate.Project) func(*sql.Selector) {
	noIssues := project.And(authz.VisibleProjectsIn(actor, scope), project.Not(issuesAvailable))
	onIssues := []predicate.Note{note.HasProjectWith(noIssues)}
	if hidden, ok := hiddenConfidentialIssues(actor, scope); ok {
		onIssues = append(onIssues, predicate.Note(db.In(note.FieldNoteableID, issue.Table, issue.FieldID, hidden)))
	}
	where := note.And(note.NoteableTypeEQ(note.NoteableTypeIssue), note.Or(onIssues...))
	// Comments on commits need the code (download_code); on merge requests, their feature.
	noCode := project.And(authz.VisibleProjectsIn(actor, scope), project.Not(authz.CodeReadableProjectsIn(actor, scope)))
	noMRs := project.And(authz.VisibleProjectsIn(actor, scope), project.Not(authz.FeatureAvailableIn(actor, scope, authz.FeatureMergeRequests)))
	where = note.Or(where,
		note.And(note.NoteableTypeEQ(note.NoteableTypeCommit), note.HasProjectWith(noCode)),
		note.And(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.HasProjectWith(noMRs)))
	if !actor.IsAdmin() {
		where = note.Or(where, note.And(note.Internal(true),
			note.Not(note.HasProjectWith(authz.ProjectsWithLevelIn(actor, scope, authz.Reporter)))))
	}
	return func(s *sql.Selector) { where(s) }
}

// hiddenConfidentialIssues selects the confidential issues the actor may not read (the issue
// finder's rule turned around: not a Reporter of the project, not the author, not an
// assignee); false when there are none to hide (administrators). Confidential issues are few,
// so the feeds exclude this small set instead of joining every issue they show.
func hiddenConfidentialIssues(actor *authz.Actor, scope *authz.Scope) (func(*sql.Selector), bool) {
	if actor.IsAdmin() {
		return nil, false
	}
	where := []predicate.Issue{issue.Confidential(true)}
	if !actor.IsAnonymous() {
		uid := actor.UserID()
		where = append(where,
			issue.Not(issue.HasProjectWith(authz.ProjectsWithLevelIn(actor, scope, authz.Reporter))),
			issue.Or(issue.AuthorIDIsNil(), issue.AuthorIDNEQ(uid)),
			issue.Not(issue.HasAssigneeLinksWith(issueassignee.UserID(uid))))
	}
	return func(s *sql.Selector) { issue.And(where...)(s) }, true
}

// notIn keeps the rows whose column is not among selectColumn of the rows of table matching
// where (an uncorrelated subquery, evaluated once). column must not be null.
func notIn(column, table, selectColumn string, where func(*sql.Selector)) func(*sql.Selector) {
	return func(s *sql.Selector) {
		t := sql.Table(table)
		inner := sql.Select(t.C(selectColumn)).From(t)
		where(inner)
		s.Where(sql.NotIn(s.C(column), inner))
	}
}

// inProjects keeps events whose project matches where, through an uncorrelated subquery
// (db.In: evaluated once on both databases).
func inProjects(where predicate.Project) predicate.Event {
	return predicate.Event(db.In(event.FieldProjectID, project.Table, project.FieldID, func(s *sql.Selector) { where(s) }))
}
