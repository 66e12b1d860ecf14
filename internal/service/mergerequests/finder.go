package mergerequests

import (
	"context"
	"strings"
	"time"

	"anvil/ent/approvalrule"
	"anvil/ent/awardemoji"
	"anvil/ent/label"
	"anvil/ent/member"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestapproval"
	"anvil/ent/mergerequestassignee"
	"anvil/ent/mergerequestlabel"
	"anvil/ent/mergerequestreviewer"
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

// visibleIn restricts merge requests to those the actor may read among the projects selected
// by inProjects: read_merge_request as a predicate, that is the merge requests and repository
// features available to the actor, and the project open to it by its visibility or the actor
// at least a Reporter (merge requests show code, which Guests of private projects do not
// read). Merge requests have no confidentiality of their own.
func (s *Service) visibleIn(ctx context.Context, actor *authz.Actor, inProjects predicate.Project) ([]predicate.MergeRequest, error) {
	var scope *authz.Scope
	if !actor.IsAnonymous() {
		var err error
		if scope, err = s.policy.Scope(ctx, actor, authz.Reporter); err != nil {
			return nil, err
		}
	}
	readable := project.And(inProjects, project.PendingDelete(false), authz.CodeReadableProjectsIn(actor, scope),
		authz.FeatureAvailableIn(actor, scope, authz.FeatureMergeRequests))
	// project_id IN (readable projects) rather than EXISTS, so the planner may start from the
	// project's merge requests (the (project_id, state, created_at, id) index) or another filter.
	return []predicate.MergeRequest{predicate.MergeRequest(db.In(mergerequest.FieldProjectID, project.Table, project.FieldID, readable))}, nil
}

// filters turns the list parameters into predicates.
func filters(actor *authz.Actor, p ListParams, ids titleIDs) ([]predicate.MergeRequest, error) {
	var out []predicate.MergeRequest
	add := func(ps ...predicate.MergeRequest) { out = append(out, ps...) }
	switch p.State {
	case "opened", "closed", "locked", "merged":
		add(mergerequest.StateEQ(mergerequest.State(p.State)))
	}
	add(filter.Predicates(p.Labels, labelRelation(ids.labels))...)
	add(filter.Predicates(p.Milestone, milestoneRelation(ids.milestones, time.Now().UTC()))...)
	add(filter.Predicates(p.AuthorID, filter.Column[int, predicate.MergeRequest](mergerequest.FieldAuthorID))...)
	add(filter.Predicates(p.AuthorUsername, usernameColumn(mergerequest.FieldAuthorID))...)
	add(filter.Predicates(p.AssigneeID, userLink[int](mergerequestassignee.Table, mergerequestassignee.FieldMergeRequestID, mergerequestassignee.FieldUserID, false))...)
	add(filter.Predicates(p.AssigneeUsername, userLink[string](mergerequestassignee.Table, mergerequestassignee.FieldMergeRequestID, mergerequestassignee.FieldUserID, true))...)
	add(filter.Predicates(p.ReviewerID, userLink[int](mergerequestreviewer.Table, mergerequestreviewer.FieldMergeRequestID, mergerequestreviewer.FieldUserID, false))...)
	add(filter.Predicates(p.ReviewerUsername, userLink[string](mergerequestreviewer.Table, mergerequestreviewer.FieldMergeRequestID, mergerequestreviewer.FieldUserID, true))...)
	// The merge user is who merged it (GitLab's MergeUserFilter reads the metrics' merged_by_id).
	add(filter.Predicates(p.MergeUserID, filter.Column[int, predicate.MergeRequest](mergerequest.FieldMergedByID))...)
	add(filter.Predicates(p.MergeUserUsername, usernameColumn(mergerequest.FieldMergedByID))...)
	add(approvals(p)...)
	if p.Approved != nil {
		if *p.Approved {
			add(mergerequest.HasApprovals())
		} else {
			add(mergerequest.Not(mergerequest.HasApprovals()))
		}
	}
	if !actor.IsAnonymous() {
		add(filter.Predicates(p.MyReactionEmoji, myReaction(actor))...)
	}
	add(filter.Predicates(p.MilestoneID, filter.Column[int, predicate.MergeRequest](mergerequest.FieldMilestoneID))...)
	add(filter.Predicates(p.IIDs, filter.Column[int, predicate.MergeRequest](mergerequest.FieldIid))...)
	add(filter.Predicates(p.SourceBranch, filter.Column[string, predicate.MergeRequest](mergerequest.FieldSourceBranch))...)
	add(filter.Predicates(p.TargetBranch, filter.Column[string, predicate.MergeRequest](mergerequest.FieldTargetBranch))...)
	if p.SourceProjectID != nil {
		add(mergerequest.SourceProjectID(*p.SourceProjectID))
	}
	if p.Draft != nil {
		add(mergerequest.Draft(*p.Draft))
	}
	for _, r := range p.Created.Predicates(mergerequest.FieldCreatedAt) {
		add(r)
	}
	for _, r := range p.Updated.Predicates(mergerequest.FieldUpdatedAt) {
		add(r)
	}
	for _, r := range p.Merged.Predicates(mergerequest.FieldMergedAt) {
		add(r)
	}
	// Deployments are not recorded yet: a merge request deployed anywhere, at any time, is none
	// (GitLab's by_deployments asks for a deployment of the merge request).
	if p.Deployed.IsSet() || p.Environment != nil {
		add(mergerequest.IDLT(0))
	}
	if p.Search != "" {
		add(search(p.Search, p.In))
	}
	switch p.Scope {
	case "created_by_me", "created-by-me", "assigned_to_me", "assigned-to-me":
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
	}
	switch p.Scope {
	case "created_by_me", "created-by-me":
		add(mergerequest.AuthorID(actor.UserID()))
	case "assigned_to_me", "assigned-to-me":
		add(mergerequest.HasAssigneeLinksWith(mergerequestassignee.UserID(actor.UserID())))
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
	if titles := append(append([]string{}, p.Labels.Is.Values...), p.Labels.Not.Values...); len(titles) > 0 {
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

// labelRelation matches merge requests by label title: id IN (the links of those labels), so a
// label's links (the (label_id, merge_request_id) index) can drive the query. Several titles
// of one label each are, on SQLite, one grouped subquery (the labels' shared merge requests
// drive the list); PostgreSQL merge-joins one IN per label by itself, faster. The issues
// finder measured both (docs/PERFORMANCE.md).
func labelRelation(byTitle map[string][]int) filter.Relation[string, predicate.MergeRequest] {
	t := func() *sql.SelectTable { return sql.Table(mergerequestlabel.Table) }
	return filter.Relation[string, predicate.MergeRequest]{
		Mode: filter.AllOf,
		In: func(titles []string) predicate.MergeRequest {
			ids := idsOf(byTitle, titles)
			return func(s *sql.Selector) {
				if len(ids) == 0 {
					s.Where(sql.False())
					return
				}
				l := t()
				s.Where(sql.In(s.C(mergerequest.FieldID), sql.Select(l.C(mergerequestlabel.FieldMergeRequestID)).From(l).
					Where(sql.In(l.C(mergerequestlabel.FieldLabelID), ids...))))
			}
		},
		All: func(titles []string) predicate.MergeRequest {
			ids := map[int]bool{}
			for _, title := range titles {
				if len(byTitle[title]) != 1 {
					return nil // unknown, or a title of several labels: one IN per title
				}
				ids[byTitle[title][0]] = true
			}
			args := make([]any, 0, len(ids))
			for id := range ids {
				args = append(args, id)
			}
			return func(s *sql.Selector) {
				l := t()
				if s.Dialect() != dialect.SQLite {
					for _, id := range args {
						s.Where(sql.In(s.C(mergerequest.FieldID), sql.Select(l.C(mergerequestlabel.FieldMergeRequestID)).From(l).
							Where(sql.EQ(l.C(mergerequestlabel.FieldLabelID), id))))
					}
					return
				}
				shared := sql.Select(l.C(mergerequestlabel.FieldMergeRequestID)).From(l).
					Where(sql.In(l.C(mergerequestlabel.FieldLabelID), args...)).
					GroupBy(l.C(mergerequestlabel.FieldMergeRequestID)).
					Having(sql.EQ(sql.Count(l.C(mergerequestlabel.FieldLabelID)), len(args)))
				s.Where(sql.In(s.C(mergerequest.FieldID), shared))
			}
		},
		Empty: func() predicate.MergeRequest { return mergerequest.Not(mergerequest.HasLabelLinks()) },
	}
}

// milestoneRelation matches merge requests by milestone title; Upcoming is the active
// milestones due after now, Started the active ones already started.
func milestoneRelation(byTitle map[string][]int, now time.Time) filter.Relation[string, predicate.MergeRequest] {
	r := filter.Column[string, predicate.MergeRequest](mergerequest.FieldMilestoneID)
	r.In = func(titles []string) predicate.MergeRequest {
		ids := idsOf(byTitle, titles)
		return func(s *sql.Selector) {
			if len(ids) == 0 {
				s.Where(sql.False())
				return
			}
			// NOT NULL too, so that not[milestone] keeps the merge requests without one.
			s.Where(sql.And(sql.NotNull(s.C(mergerequest.FieldMilestoneID)), sql.In(s.C(mergerequest.FieldMilestoneID), ids...)))
		}
	}
	r.Wildcards = map[filter.Wildcard]func() predicate.MergeRequest{
		filter.Upcoming: func() predicate.MergeRequest {
			return mergerequest.HasMilestoneWith(milestone.StateEQ(milestone.StateActive), milestone.DueDateGT(now))
		},
		filter.Started: func() predicate.MergeRequest {
			return mergerequest.HasMilestoneWith(milestone.StateEQ(milestone.StateActive), milestone.StartDateLTE(now))
		},
	}
	return r
}

// usernameColumn matches a user id column by the users' usernames; a nullable column, so that
// not[...] keeps the rows without a user.
func usernameColumn(column string) filter.Relation[string, predicate.MergeRequest] {
	r := filter.Column[string, predicate.MergeRequest](column)
	r.In = func(names []string) predicate.MergeRequest {
		return func(s *sql.Selector) {
			s.Where(sql.NotNull(s.C(column)))
			db.In(column, user.Table, user.FieldID, user.UsernameIn(names...))(s)
		}
	}
	return r
}

// userLink matches merge requests through a (merge_request_id, user_id) table (assignees,
// reviewers, approvals) by user id, or by username when byName; several usernames are all
// required (GitLab's assignee_username[]), several ids any.
func userLink[T any](table, owner, userColumn string, byName bool) filter.Relation[T, predicate.MergeRequest] {
	linked := func(s *sql.Selector, users *sql.Selector) {
		l := sql.Table(table)
		sub := sql.Select(l.C(owner)).From(l)
		if users != nil {
			sub.Where(sql.In(l.C(userColumn), users))
		}
		s.Where(sql.In(s.C(mergerequest.FieldID), sub))
	}
	r := filter.Relation[T, predicate.MergeRequest]{
		In: func(values []T) predicate.MergeRequest {
			return func(s *sql.Selector) {
				u := sql.Table(user.Table)
				users := sql.Select(u.C(user.FieldID)).From(u)
				if byName {
					users.Where(sql.In(u.C(user.FieldUsername), anys(values)...))
				} else {
					users.Where(sql.In(u.C(user.FieldID), anys(values)...))
				}
				linked(s, users)
			}
		},
		Empty: func() predicate.MergeRequest {
			return func(s *sql.Selector) {
				l := sql.Table(table)
				s.Where(sql.NotIn(s.C(mergerequest.FieldID), sql.Select(l.C(owner)).From(l)))
			}
		},
	}
	if byName {
		r.Mode = filter.AllOf
	}
	return r
}

// approvals is approved_by_ids (or, without ids, approved_by_usernames) and approver_ids:
// GitLab's ByApprovalsFinder, which keeps the first MaxApprovalFilter values, requires every
// one of them, and reads None and Any as no approval and some approval.
func approvals(p ListParams) []predicate.MergeRequest {
	approval := func(byName bool) filter.Relation[any, predicate.MergeRequest] {
		r := userLink[any](mergerequestapproval.Table, mergerequestapproval.FieldMergeRequestID, mergerequestapproval.FieldUserID, byName)
		r.Mode = filter.AllOf
		return r
	}
	var out []predicate.MergeRequest
	if p.ApprovedByIDs.IsSet() {
		out = append(out, filter.Predicates(firstOf(p.ApprovedByIDs), approval(false))...)
	} else if p.ApprovedByUsernames.IsSet() {
		out = append(out, filter.Predicates(firstOf(p.ApprovedByUsernames), approval(true))...)
	}
	out = append(out, approvers(p)...)
	return out
}

// approvers is approver_ids (or, without ids, GraphQL's approver usernames): GitLab's
// ByApproversFinder. None is a merge request without approval rules of its own whose target
// project has none either; Any one with rules of its own or a project with rules. Users (the
// first MaxApprovalFilter) must each be an approver: named by one of the merge request's own
// rules or, when it has none, by one of its project's rules, directly or as an active member
// of a group the rule names.
func approvers(p ListParams) []predicate.MergeRequest {
	var f filter.Field[any]
	byName := false
	switch {
	case p.ApproverIDs.IsSet():
		f = firstOf(p.ApproverIDs)
	case p.ApproverUsernames.IsSet():
		f, byName = firstOf(p.ApproverUsernames), true
	default:
		return nil
	}
	switch f.Is.Wildcard {
	case filter.None:
		return []predicate.MergeRequest{mergerequest.Not(anyApprovalRule())}
	case filter.Any:
		return []predicate.MergeRequest{anyApprovalRule()}
	}
	var out []predicate.MergeRequest
	for _, v := range f.Is.Values {
		out = append(out, approverIs(v, byName))
	}
	return out
}

// ownRules selects the merge requests that have approval rules of their own.
func ownRules() *sql.Selector {
	r := sql.Table(approvalrule.Table)
	return sql.Select(r.C(approvalrule.FieldMergeRequestID)).From(r).Where(sql.NotNull(r.C(approvalrule.FieldMergeRequestID)))
}

// anyApprovalRule matches merge requests with approval rules of their own or whose project has
// some.
func anyApprovalRule() predicate.MergeRequest {
	return func(s *sql.Selector) {
		r := sql.Table(approvalrule.Table)
		projectRules := sql.Select(r.C(approvalrule.FieldProjectID)).From(r).Where(sql.IsNull(r.C(approvalrule.FieldMergeRequestID)))
		s.Where(sql.Or(sql.In(s.C(mergerequest.FieldID), ownRules()), sql.In(s.C(mergerequest.FieldProjectID), projectRules)))
	}
}

// approverIs matches merge requests of which the user (an id, or a username when byName) is
// an approver.
func approverIs(v any, byName bool) predicate.MergeRequest {
	return func(s *sql.Selector) {
		u := sql.Table(user.Table)
		users := sql.Select(u.C(user.FieldID)).From(u)
		if byName {
			users.Where(sql.EQ(u.C(user.FieldUsername), v))
		} else {
			users.Where(sql.EQ(u.C(user.FieldID), v))
		}
		// The rules naming the user, directly or through a group.
		ru := sql.Table(approvalrule.UsersTable)
		direct := sql.Select(ru.C(approvalrule.UsersPrimaryKey[0])).From(ru).Where(sql.In(ru.C(approvalrule.UsersPrimaryKey[1]), users))
		m := sql.Table(member.Table)
		groups := sql.Select(m.C(member.FieldNamespaceID)).From(m).
			Where(sql.And(sql.In(m.C(member.FieldUserID), users), sql.EQ(m.C(member.FieldState), "active")))
		rg := sql.Table(approvalrule.GroupsTable)
		viaGroup := sql.Select(rg.C(approvalrule.GroupsPrimaryKey[0])).From(rg).Where(sql.In(rg.C(approvalrule.GroupsPrimaryKey[1]), groups))
		naming := func(r *sql.SelectTable) *sql.Predicate {
			return sql.Or(sql.In(r.C(approvalrule.FieldID), direct), sql.In(r.C(approvalrule.FieldID), viaGroup))
		}
		own := sql.Table(approvalrule.Table)
		ownMRs := sql.Select(own.C(approvalrule.FieldMergeRequestID)).From(own).
			Where(sql.And(sql.NotNull(own.C(approvalrule.FieldMergeRequestID)), naming(own)))
		proj := sql.Table(approvalrule.Table)
		projects := sql.Select(proj.C(approvalrule.FieldProjectID)).From(proj).
			Where(sql.And(sql.IsNull(proj.C(approvalrule.FieldMergeRequestID)), naming(proj)))
		s.Where(sql.Or(
			sql.In(s.C(mergerequest.FieldID), ownMRs),
			sql.And(sql.NotIn(s.C(mergerequest.FieldID), ownRules()), sql.In(s.C(mergerequest.FieldProjectID), projects)),
		))
	}
}

// firstOf keeps the first MaxApprovalFilter distinct values of f, as untyped values.
func firstOf[T comparable](f filter.Field[T]) filter.Field[any] {
	conv := func(v filter.Value[T]) filter.Value[any] {
		if !v.IsSet() {
			return filter.Value[any]{}
		}
		if v.Wildcard != "" {
			return filter.Wild[any](v.Wildcard)
		}
		seen := map[T]bool{}
		out := []any{}
		for _, x := range v.Values {
			if !seen[x] && len(out) < MaxApprovalFilter {
				seen[x] = true
				out = append(out, x)
			}
		}
		return filter.Of(out...)
	}
	return filter.Field[any]{Is: conv(f.Is), Not: conv(f.Not)}
}

func anys[T any](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// search matches q in the title and/or description, case-insensitively.
func search(q string, in []string) predicate.MergeRequest {
	title, desc := len(in) == 0, len(in) == 0
	for _, f := range in {
		switch strings.TrimSpace(f) {
		case "title":
			title = true
		case "description":
			desc = true
		}
	}
	var any []predicate.MergeRequest
	if title {
		any = append(any, predicate.MergeRequest(db.ContainsFold(mergerequest.FieldTitle, q)))
	}
	if desc {
		any = append(any, predicate.MergeRequest(db.ContainsFold(mergerequest.FieldDescription, q)))
	}
	if len(any) == 0 {
		return mergerequest.IDLT(0)
	}
	return mergerequest.Or(any...)
}

// myReaction is the my_reaction_emoji filter: the merge requests the actor awarded an emoji of
// those names (None: none at all, Any: some); not[my_reaction_emoji] those the actor did not
// award that emoji. Anonymous callers have no reactions: GitLab ignores the filter for them.
func myReaction(actor *authz.Actor) filter.Relation[string, predicate.MergeRequest] {
	awarded := func(s *sql.Selector, names []string) *sql.Selector {
		t := sql.Table(awardemoji.Table)
		preds := []*sql.Predicate{
			sql.EQ(t.C(awardemoji.FieldAwardableType), awardemoji.AwardableTypeMergeRequest.String()),
			sql.ColumnsEQ(t.C(awardemoji.FieldAwardableID), s.C(mergerequest.FieldID)),
			sql.EQ(t.C(awardemoji.FieldUserID), actor.UserID()),
		}
		if names != nil {
			preds = append(preds, sql.In(t.C(awardemoji.FieldName), anys(names)...))
		}
		return sql.Select(t.C(awardemoji.FieldID)).From(t).Where(sql.And(preds...))
	}
	return filter.Relation[string, predicate.MergeRequest]{
		In: func(names []string) predicate.MergeRequest {
			return func(s *sql.Selector) { s.Where(sql.Exists(awarded(s, names))) }
		},
		Empty: func() predicate.MergeRequest {
			return func(s *sql.Selector) { s.Where(sql.NotExists(awarded(s, nil))) }
		},
	}
}
