package todos

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/todo"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/epics"
	"anvil/internal/service/issues"

	"entgo.io/ent/dialect/sql"
)

// ListParams are GET /todos's filters in GitLab's names; the zero value lists the caller's
// pending to-dos.
type ListParams struct {
	// Action keeps the to-dos of these actions (action; GraphQL takes several): Actions.
	Action []string
	// AuthorID, ProjectID and GroupID keep the to-dos of one author, project, or group (with
	// its subgroups and their projects).
	AuthorID, ProjectID, GroupID *int
	// State keeps pending (the default) or done to-dos, or both (GraphQL takes several).
	State []string
	// Type keeps the to-dos of these target types (type; GraphQL takes several): Types.
	Type []string
}

// Actions are the values of the action filter (GitLab's Todo::ACTION_NAMES).
var Actions = []string{"assigned", "mentioned", "build_failed", "marked", "approval_required", "unmergeable",
	"directly_addressed", "merge_train_removed", "review_requested", "member_access_requested",
	"review_submitted", "okr_checkin_requested", "added_approver", "ssh_key_expired", "ssh_key_expiring_soon"}

// States are the values of the state filter.
var States = []string{"pending", "done"}

// Types are the values of the type filter (GitLab's TodosFinder.todo_types).
var Types = []string{"Commit", "Issue", "WorkItem", "MergeRequest", "DesignManagement::Design",
	"AlertManagement::Alert", "Namespace", "Project", "Key", "WikiPage::Meta", "Epic", "Vulnerability"}

// View is what presenting a page of to-dos needs beyond the rows: the targets, loaded as
// their own presenters want them (issues with issues.Load), and the projects' namespaces'
// human full names ("Group / Subgroup").
type View struct {
	Issues        map[int]*ent.Issue
	MergeRequests map[int]*ent.MergeRequest
	Epics         map[int]epics.View
	FullNames     map[int]string
}

// List lists the caller's to-dos matching p, newest first, one offset page. A to-do whose
// target the caller may no longer read is not shown (GitLab's AllowedTargetFilterService).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset) (pagination.Result[*ent.Todo], *View, error) {
	var r pagination.Result[*ent.Todo]
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return r, nil, err
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return r, nil, err
	}
	rows, err := load(q.Order(ent.Desc(todo.FieldID))).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, nil, err
	}
	v, err := s.view(ctx, rows)
	if err != nil {
		return r, nil, err
	}
	return pagination.Result[*ent.Todo]{Items: rows, Total: pagination.BoundedTotal(n), Page: page}, v, nil
}

// Query selects the caller's to-dos matching p whose targets the caller may read (REST pages
// it; GraphQL paginates it).
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.TodoQuery, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	readable, err := s.readableTargets(ctx, actor)
	if err != nil {
		return nil, err
	}
	states := []todo.State{todo.StatePending}
	if len(p.State) > 0 {
		states = states[:0]
		for _, st := range p.State {
			states = append(states, todo.State(st))
		}
	}
	q := db.ClientFrom(ctx, s.client).Todo.Query().Where(todo.UserID(actor.UserID()), todo.StateIn(states...), readable)
	if len(p.Action) > 0 {
		actions := make([]todo.Action, len(p.Action))
		for i, a := range p.Action {
			actions[i] = todo.Action(a)
		}
		q.Where(todo.ActionIn(actions...))
	}
	if p.AuthorID != nil {
		q.Where(todo.AuthorID(*p.AuthorID))
	}
	if p.ProjectID != nil {
		q.Where(todo.ProjectID(*p.ProjectID))
	}
	if p.GroupID != nil {
		g, err := db.ClientFrom(ctx, s.client).Namespace.Query().
			Where(namespace.ID(*p.GroupID), namespace.KindEQ(namespace.KindGroup)).Only(ctx)
		if ent.IsNotFound(err) {
			return q.Where(todo.IDLT(0)), nil
		}
		if err != nil {
			return nil, err
		}
		tree := namespace.Or(namespace.ID(g.ID), authz.Descendants(g.FullPath))
		q.Where(todo.Or(todo.HasGroupWith(tree), todo.HasProjectWith(project.HasNamespaceWith(tree))))
	}
	if len(p.Type) > 0 {
		q.Where(todo.TargetTypeIn(p.Type...))
	}
	return q, nil
}

// readableTargets keeps the to-dos whose target the caller may read: for issues, the issue
// finder's rule; for merge requests, their feature in the project; for epics, the epic
// service's rule.
func (s *Service) readableTargets(ctx context.Context, actor *authz.Actor) (predicate.Todo, error) {
	readable, err := s.issues.Readable(ctx, actor)
	if err != nil {
		return nil, err
	}
	inIssues := predicate.Todo(db.In(todo.FieldTargetID, issue.Table, issue.FieldID, func(s *sql.Selector) { readable(s) }))
	inMRs, err := s.readableMergeRequests(ctx, actor)
	if err != nil {
		return nil, err
	}
	inEpics, err := s.readableEpics(ctx, actor)
	if err != nil {
		return nil, err
	}
	return todo.Or(todo.TargetTypeNotIn(TargetIssue, TargetMergeRequest, TargetEpic),
		todo.And(todo.TargetType(TargetIssue), inIssues),
		todo.And(todo.TargetType(TargetMergeRequest), inMRs),
		todo.And(todo.TargetType(TargetEpic), inEpics)), nil
}

// readableEpics keeps the to-dos on the epics the caller may read, among the epics the
// caller's to-dos are about (a user's epic to-dos are few; the rule is the epic service's).
func (s *Service) readableEpics(ctx context.Context, actor *authz.Actor) (predicate.Todo, error) {
	ids, err := db.ClientFrom(ctx, s.client).Todo.Query().Where(todo.UserID(actor.UserID()), todo.TargetType(TargetEpic)).
		Unique(true).Select(todo.FieldTargetID).Ints(ctx)
	if err != nil {
		return nil, err
	}
	readable, err := s.epics.Readable(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	if len(readable) == 0 {
		return todo.IDLT(0), nil
	}
	return todo.TargetIDIn(readable...), nil
}

// Load adds the edges a to-do's presentation reads (GraphQL pages Query with them).
func Load(q *ent.TodoQuery) *ent.TodoQuery { return load(q) }

// TargetIssue is the issue a to-do of the actor's is about, with issues.Load's edges; nil when
// the target is not an issue or the actor may no longer read it.
func (s *Service) TargetIssue(ctx context.Context, actor *authz.Actor, t *ent.Todo) (*ent.Issue, error) {
	if t.TargetType != TargetIssue {
		return nil, nil
	}
	is, err := s.issues.FindVisible(ctx, actor, t.TargetID)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return is, err
}

// load adds the edges a to-do's presentation reads.
func load(q *ent.TodoQuery) *ent.TodoQuery {
	return q.WithAuthor().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).WithGroup()
}

// view loads the targets of rows and their projects' namespace names.
func (s *Service) view(ctx context.Context, rows []*ent.Todo) (*View, error) {
	v := &View{Issues: map[int]*ent.Issue{}, FullNames: map[int]string{}}
	c := db.ClientFrom(ctx, s.client)
	var issueIDs, mrIDs, epicIDs []int
	paths := map[string]bool{}
	for _, t := range rows {
		switch t.TargetType {
		case TargetIssue:
			issueIDs = append(issueIDs, t.TargetID)
		case TargetMergeRequest:
			mrIDs = append(mrIDs, t.TargetID)
		case TargetEpic:
			epicIDs = append(epicIDs, t.TargetID)
		}
		if p := t.Edges.Project; p != nil && p.Edges.Namespace != nil {
			for _, a := range authz.Ancestors(p.Edges.Namespace.FullPath) {
				paths[a] = true
			}
		}
	}
	if len(issueIDs) > 0 {
		list, err := issues.Load(c.Issue.Query().Where(issue.IDIn(issueIDs...))).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, is := range list {
			v.Issues[is.ID] = is
		}
	}
	var err error
	if v.MergeRequests, err = loadMergeRequests(ctx, c, mrIDs); err != nil {
		return nil, err
	}
	if v.Epics, err = s.epics.Views(ctx, epicIDs); err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return v, nil
	}
	all := make([]string, 0, len(paths))
	for p := range paths {
		all = append(all, p)
	}
	nss, err := c.Namespace.Query().Where(namespace.FullPathIn(all...)).
		Select(namespace.FieldID, namespace.FieldName, namespace.FieldFullPath).All(ctx)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, ns := range nss {
		names[ns.FullPath] = ns.Name
	}
	for _, ns := range nss {
		var chain []string
		for _, a := range authz.Ancestors(ns.FullPath) {
			chain = append(chain, names[a])
		}
		v.FullNames[ns.ID] = strings.Join(chain, " / ")
	}
	return v, nil
}

// MarkDone marks the caller's to-do id done and returns it (POST /todos/:id/mark_as_done);
// 404 Not found for a to-do of someone else or none.
func (s *Service) MarkDone(ctx context.Context, actor *authz.Actor, idText string) (*ent.Todo, *View, error) {
	if actor.IsAnonymous() {
		return nil, nil, apperr.Unauthorized()
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, nil, apperr.RecordNotFound()
	}
	c := db.ClientFrom(ctx, s.client)
	t, err := c.Todo.Query().Where(todo.ID(id), todo.UserID(actor.UserID())).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, nil, err
	}
	if t.State == todo.StatePending {
		if err := c.Todo.UpdateOne(t).SetState(todo.StateDone).SetUpdatedAt(now()).Exec(ctx); err != nil {
			return nil, nil, err
		}
	}
	return s.one(ctx, id)
}

// MarkAllDone marks every pending to-do of the caller done (POST /todos/mark_as_done).
func (s *Service) MarkAllDone(ctx context.Context, actor *authz.Actor) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	return db.ClientFrom(ctx, s.client).Todo.Update().
		Where(todo.UserID(actor.UserID()), todo.StateEQ(todo.StatePending)).
		SetState(todo.StateDone).SetUpdatedAt(now()).Exec(ctx)
}

// MarkIssue adds a "marked" to-do on the issue iid of project ref for the caller (POST
// /projects/:id/issues/:issue_iid/todo) and returns it; created is false, and nothing is
// added, when the caller already has a pending to-do on the issue (GitLab's 304). An issue the
// caller may not read is 404.
func (s *Service) MarkIssue(ctx context.Context, actor *authz.Actor, ref, iid string) (t *ent.Todo, v *View, created bool, err error) {
	if actor.IsAnonymous() {
		return nil, nil, false, apperr.Unauthorized()
	}
	is, _, err := s.issues.Find(ctx, actor, ref, iid)
	if err != nil {
		return nil, nil, false, err
	}
	var id int
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		pending, err := c.Todo.Query().Where(todo.UserID(actor.UserID()), todo.TargetType(TargetIssue),
			todo.TargetID(is.ID), todo.StateEQ(todo.StatePending)).Exist(ctx)
		if err != nil || pending {
			return err
		}
		row, err := c.Todo.Create().SetUserID(actor.UserID()).SetAuthorID(actor.UserID()).SetProjectID(is.ProjectID).
			SetTargetType(TargetIssue).SetTargetID(is.ID).SetAction(todo.ActionMarked).Save(ctx)
		if err != nil {
			return err
		}
		id = row.ID
		return nil
	})
	if err != nil || id == 0 {
		return nil, nil, false, err
	}
	t, v, err = s.one(ctx, id)
	return t, v, err == nil, err
}

// one reads a to-do with what presenting it needs.
func (s *Service) one(ctx context.Context, id int) (*ent.Todo, *View, error) {
	t, err := load(db.ClientFrom(ctx, s.client).Todo.Query().Where(todo.ID(id))).Only(ctx)
	if err != nil {
		return nil, nil, err
	}
	v, err := s.view(ctx, []*ent.Todo{t})
	return t, v, err
}

// Counts are GET /user_counts: the caller's open issues assigned to it and pending to-dos;
// merge request counts are zero until merge requests exist.
type Counts struct {
	AssignedIssues int
	Todos          int
}

// UserCounts counts what GET /user_counts shows (GitLab's assigned_open_issues_count, over
// projects not archived, and todos_pending_count).
func (s *Service) UserCounts(ctx context.Context, actor *authz.Actor) (Counts, error) {
	var out Counts
	if actor.IsAnonymous() {
		return out, apperr.Unauthorized()
	}
	q, err := s.issues.Query(ctx, actor, issues.Parent{}, issues.ListParams{Scope: "assigned_to_me", State: "opened"})
	if err != nil {
		return out, err
	}
	if out.AssignedIssues, err = q.Where(issue.HasProjectWith(project.Archived(false))).Count(ctx); err != nil {
		return out, err
	}
	tq, err := s.Query(ctx, actor, ListParams{})
	if err != nil {
		return out, err
	}
	out.Todos, err = tq.Count(ctx)
	return out, err
}
