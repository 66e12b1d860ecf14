package issues

import (
	"context"
	"strings"
	"time"

	"anvil/ent/issue"
	"anvil/ent/issueassignee"
	"anvil/ent/issuelabel"
	"anvil/ent/label"
	"anvil/ent/milestone"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/filter"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// visibleIn restricts issues to those the actor may read among the projects selected by
// inProjects: the issues feature available, and a confidential issue only in projects where the
// actor reads confidential issues (Reporter+), or as its author or an assignee.
func (s *Service) visibleIn(ctx context.Context, actor *authz.Actor, inProjects predicate.Project) ([]predicate.Issue, error) {
	var scope *authz.Scope
	if !actor.IsAnonymous() {
		var err error
		if scope, err = s.policy.Scope(ctx, actor, authz.Guest); err != nil {
			return nil, err
		}
	}
	readable := project.And(inProjects, project.PendingDelete(false), authz.VisibleProjectsIn(actor, scope),
		authz.FeatureAvailableIn(actor, scope, authz.FeatureIssues))
	// project_id IN (readable projects) rather than EXISTS, so the planner may start from the
	// project's issues (the (project_id, state, created_at) index) or from another filter.
	out := []predicate.Issue{predicate.Issue(db.In(issue.FieldProjectID, project.Table, project.FieldID, readable))}
	if actor.IsAdmin() {
		return out, nil
	}
	out = append(out, issue.Or(issue.Confidential(false),
		issue.HasProjectWith(authz.ProjectsWithLevelIn(actor, scope, authz.Reporter)),
		ownIssue(actor)))
	return out, nil
}

// ownIssue selects the issues the actor wrote or is assigned to.
func ownIssue(actor *authz.Actor) predicate.Issue {
	if actor.IsAnonymous() {
		return issue.IDLT(0)
	}
	uid := actor.UserID()
	return issue.Or(issue.AuthorID(uid), issue.HasAssigneeLinksWith(issueassignee.UserID(uid)))
}

// filters turns the list parameters into predicates.
func filters(actor *authz.Actor, p ListParams, ids titleIDs) ([]predicate.Issue, error) {
	var out []predicate.Issue
	switch p.State {
	case "opened":
		out = append(out, issue.StateEQ(issue.StateOpened))
	case "closed":
		out = append(out, issue.StateEQ(issue.StateClosed))
	}
	out = append(out, filter.Predicates(p.Labels, labelRelation(ids.labels))...)
	out = append(out, filter.Predicates(p.Milestone, milestoneRelation(ids.milestones, time.Now().UTC()))...)
	out = append(out, filter.Predicates(p.AuthorID, filter.Column[int, predicate.Issue](issue.FieldAuthorID))...)
	out = append(out, filter.Predicates(p.AuthorUsername, usernameColumn(issue.FieldAuthorID))...)
	out = append(out, filter.Predicates(p.AssigneeID, assigneeRelation())...)
	out = append(out, filter.Predicates(p.AssigneeUsername, assigneeUsernames())...)
	if !actor.IsAnonymous() {
		out = append(out, filter.Predicates(p.MyReactionEmoji, myReaction(actor))...)
	}
	out = append(out, filter.Predicates(p.MilestoneID, filter.Column[int, predicate.Issue](issue.FieldMilestoneID))...)
	out = append(out, filter.Predicates(p.IIDs, filter.Column[int, predicate.Issue](issue.FieldIid))...)
	out = append(out, filter.Predicates(p.IssueType, filter.Column[string, predicate.Issue](issue.FieldIssueType))...)
	out = append(out, orFilters(p.Or, ids)...)
	if p.Confidential != nil {
		out = append(out, issue.Confidential(*p.Confidential))
	}
	for _, r := range p.Created.Predicates(issue.FieldCreatedAt) {
		out = append(out, r)
	}
	for _, r := range p.Updated.Predicates(issue.FieldUpdatedAt) {
		out = append(out, r)
	}
	for _, r := range p.Due.Predicates(issue.FieldDueDate) {
		out = append(out, r)
	}
	for _, r := range p.Closed.Predicates(issue.FieldClosedAt) {
		out = append(out, r)
	}
	if p.Search != "" {
		out = append(out, search(p.Search, p.In))
	}
	if p.DueDate != "" {
		out = append(out, dueDate(p.DueDate, time.Now().UTC()))
	}
	switch p.Scope {
	case "created_by_me":
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
		out = append(out, issue.AuthorID(actor.UserID()))
	case "assigned_to_me":
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
		out = append(out, issue.HasAssigneeLinksWith(issueassignee.UserID(actor.UserID())))
	}
	return out, nil
}

// titleIDs are the ids of the labels and milestones the filters name by title, read before the
// list (GitLab's finder does the same): with literal ids each filter is an index lookup the
// planner can estimate and start from.
type titleIDs struct {
	labels, milestones map[string][]int
}

// resolveTitles reads the ids of every label and milestone title p filters by.
func (s *Service) resolveTitles(ctx context.Context, p ListParams) (titleIDs, error) {
	out := titleIDs{labels: map[string][]int{}, milestones: map[string][]int{}}
	c := db.ClientFrom(ctx, s.client)
	if titles := append(append(append([]string{}, p.Labels.Is.Values...), p.Labels.Not.Values...), p.Or.LabelNames...); len(titles) > 0 {
		ls, err := c.Label.Query().Where(label.TitleIn(titles...)).Select(label.FieldID, label.FieldTitle).All(ctx)
		if err != nil {
			return out, err
		}
		for _, l := range ls {
			out.labels[l.Title] = append(out.labels[l.Title], l.ID)
		}
	}
	if titles := append(append([]string{}, p.Milestone.Is.Values...), p.Milestone.Not.Values...); len(titles) > 0 {
		ms, err := c.Milestone.Query().Where(milestone.TitleIn(titles...)).Select(milestone.FieldID, milestone.FieldTitle).All(ctx)
		if err != nil {
			return out, err
		}
		for _, m := range ms {
			out.milestones[m.Title] = append(out.milestones[m.Title], m.ID)
		}
	}
	return out, nil
}

// idsOf collects the ids of titles; none when no title is known.
func idsOf(byTitle map[string][]int, titles []string) []any {
	var out []any
	for _, t := range titles {
		for _, id := range byTitle[t] {
			out = append(out, id)
		}
	}
	return out
}

// labelRelation matches issues by label title: id IN (the links of those labels), so a label's
// links (the (label_id, issue_id) index) can drive the query.
func labelRelation(byTitle map[string][]int) filter.Relation[string, predicate.Issue] {
	return filter.Relation[string, predicate.Issue]{
		Mode: filter.AllOf,
		In: func(titles []string) predicate.Issue {
			ids := idsOf(byTitle, titles)
			return func(s *sql.Selector) {
				if len(ids) == 0 {
					s.Where(sql.False())
					return
				}
				s.Where(sql.In(s.C(issue.FieldID), linksOf(ids)))
			}
		},
		// Several titles on SQLite: the issues linked to all of them as one INTERSECT of each
		// title's links, so that SQLite starts from the labels' shared issues (a few hundred)
		// rather than from the milestone's (thousands). PostgreSQL merge-joins one IN per title
		// by itself (6 ms at 100,000 issues), so it keeps those.
		All: func(titles []string) predicate.Issue {
			for _, title := range titles {
				if len(byTitle[title]) == 0 {
					return nil // an unknown title matches nothing: In says so
				}
			}
			return func(s *sql.Selector) {
				if s.Dialect() != dialect.SQLite {
					for _, title := range titles {
						s.Where(sql.In(s.C(issue.FieldID), linksOf(byTitle[title])))
					}
					return
				}
				s.Where(sql.In(s.C(issue.FieldID), sharedIssues(byTitle, titles)))
			}
		},
		Empty: func() predicate.Issue { return issue.Not(issue.HasLabelLinks()) },
	}
}

// linksOf selects the issues linked to any of the labels ids.
func linksOf[T any](ids []T) *sql.Selector {
	t := sql.Table(issuelabel.Table)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return sql.Select(t.C(issuelabel.FieldIssueID)).From(t).Where(sql.In(t.C(issuelabel.FieldLabelID), args...))
}

// sharedIssues selects the issues having a label of each title (SQLite): the titles' links
// intersected in issue order. With ORDER BY, SQLite merges the compound from the (label_id,
// issue_id) index, which yields a single label's links already in issue order, reading each
// label's links once and sorting nothing; without it (or with the labels' links grouped by
// issue, as before), it builds a temporary b-tree of them each time: 12 ms of CPU per
// statement against 2 at 100,000 issues (docs/PERFORMANCE.md, "Issue lists").
func sharedIssues(byTitle map[string][]int, titles []string) *sql.Selector {
	shared := linksOf(byTitle[titles[0]])
	for _, title := range titles[1:] {
		shared.Intersect(linksOf(byTitle[title]))
	}
	return shared.OrderExpr(sql.Expr("1"))
}

// milestoneRelation matches issues by milestone title; Upcoming is the active milestones
// due after now, Started the active ones already started.
func milestoneRelation(byTitle map[string][]int, now time.Time) filter.Relation[string, predicate.Issue] {
	r := filter.Column[string, predicate.Issue](issue.FieldMilestoneID)
	r.In = func(titles []string) predicate.Issue {
		ids := idsOf(byTitle, titles)
		return func(s *sql.Selector) {
			if len(ids) == 0 {
				s.Where(sql.False())
				return
			}
			// NOT NULL too, so that not[milestone] keeps the issues without one.
			s.Where(sql.And(sql.NotNull(s.C(issue.FieldMilestoneID)), sql.In(s.C(issue.FieldMilestoneID), ids...)))
		}
	}
	r.Wildcards = map[filter.Wildcard]func() predicate.Issue{
		filter.Upcoming: func() predicate.Issue {
			return issue.HasMilestoneWith(milestone.StateEQ(milestone.StateActive), milestone.DueDateGT(now))
		},
		filter.Started: func() predicate.Issue {
			return issue.HasMilestoneWith(milestone.StateEQ(milestone.StateActive), milestone.StartDateLTE(now))
		},
	}
	return r
}

// orFilters are the any-of filters: one predicate per list given, matching any of its values.
func orFilters(o OrParams, ids titleIDs) []predicate.Issue {
	var out []predicate.Issue
	if o.AssigneeUsernames != nil {
		out = append(out, assigneeUsernames().In(o.AssigneeUsernames))
	}
	if o.AuthorUsernames != nil {
		out = append(out, usernameColumn(issue.FieldAuthorID).In(o.AuthorUsernames))
	}
	if o.LabelNames != nil {
		out = append(out, labelRelation(ids.labels).In(o.LabelNames))
	}
	return out
}

// usernameColumn matches a user id column by the users' usernames.
func usernameColumn(column string) filter.Relation[string, predicate.Issue] {
	r := filter.Column[string, predicate.Issue](column)
	r.In = func(names []string) predicate.Issue {
		return predicate.Issue(db.In(column, user.Table, user.FieldID, user.UsernameIn(names...)))
	}
	return r
}

// assigneeRelation matches issues by assignee id through issue_assignees.
func assigneeRelation() filter.Relation[int, predicate.Issue] {
	return filter.Relation[int, predicate.Issue]{
		In:    func(ids []int) predicate.Issue { return issue.HasAssigneeLinksWith(issueassignee.UserIDIn(ids...)) },
		Empty: func() predicate.Issue { return issue.Not(issue.HasAssigneeLinks()) },
	}
}

// assigneeUsernames matches issues by assignee username; several names are all required, as
// GitLab's assignee_username[] is.
func assigneeUsernames() filter.Relation[string, predicate.Issue] {
	return filter.Relation[string, predicate.Issue]{
		Mode: filter.AllOf,
		In: func(names []string) predicate.Issue {
			return issue.HasAssigneeLinksWith(func(s *sql.Selector) {
				db.In(issueassignee.FieldUserID, user.Table, user.FieldID, user.UsernameIn(names...))(s)
			})
		},
		Empty: func() predicate.Issue { return issue.Not(issue.HasAssigneeLinks()) },
	}
}

// search matches the words of q in the title and/or description, case-insensitively.
func search(q string, in []string) predicate.Issue {
	title, desc := len(in) == 0, len(in) == 0
	for _, f := range in {
		switch strings.TrimSpace(f) {
		case "title":
			title = true
		case "description":
			desc = true
		}
	}
	var any []predicate.Issue
	if title {
		any = append(any, predicate.Issue(db.ContainsFold(issue.FieldTitle, q)))
	}
	if desc {
		any = append(any, predicate.Issue(db.ContainsFold(issue.FieldDescription, q)))
	}
	if len(any) == 0 {
		return issue.IDLT(0)
	}
	return issue.Or(any...)
}

// dueDate is the due_date filter (GitLab's Issue::NoDueDate, AnyDueDate, DueToday, ...): weeks
// start on Monday, as in Rails.
func dueDate(v string, now time.Time) predicate.Issue {
	today := now.Truncate(24 * time.Hour)
	day := func(t time.Time) time.Time { return t.Truncate(24 * time.Hour) }
	between := func(from, to time.Time) predicate.Issue {
		return issue.And(issue.DueDateGTE(from), issue.DueDateLTE(to))
	}
	switch v {
	case "0":
		return issue.DueDateIsNil()
	case "any":
		return issue.DueDateNotNil()
	case "today":
		return issue.DueDateEQ(today)
	case "tomorrow":
		return issue.DueDateEQ(today.AddDate(0, 0, 1))
	case "overdue":
		return issue.DueDateLT(today)
	case "week":
		monday := day(today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7)))
		return between(monday, monday.AddDate(0, 0, 6))
	case "month":
		first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
		return between(first, first.AddDate(0, 1, -1))
	case "next_month_and_previous_two_weeks":
		first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
		return between(today.AddDate(0, 0, -14), first.AddDate(0, 2, -1))
	}
	return issue.IDLT(0)
}
