package issues

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/issueassignee"
	"anvil/ent/issuelabel"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
)

// Parent is the list's parent: a project, a group (with its subgroups), or neither (GET /issues).
type Parent struct {
	ProjectRef string
	GroupRef   string
	// WithoutSubgroups keeps a group's list to the projects directly in it.
	WithoutSubgroups bool
}

// Query returns the issues of parent the actor may read that match p (REST pages it; GraphQL
// paginates the query). A project or group the actor cannot read is 404.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams) (*ent.IssueQuery, error) {
	var (
		in     predicate.Project
		pinned []predicate.Issue
	)
	switch {
	case parent.ProjectRef != "":
		proj, err := s.projects.Find(ctx, actor, parent.ProjectRef, authz.ReadProject)
		if err != nil {
			return nil, err
		}
		in = project.ID(proj.ID)
		// The project's id as a literal beside the readable-projects subquery (which still
		// decides what the actor may read): with project_id = ? both databases walk the
		// (project_id, created_at, id) index in the default order and stop after a page,
		// where project_id IN (subquery) made SQLite sort all of the project's issues
		// (189 ms at 100,000 issues; docs/PERFORMANCE.md, "Issue lists").
		pinned = append(pinned, issue.ProjectID(proj.ID))
	case parent.GroupRef != "":
		g, err := s.groups.Find(ctx, actor, parent.GroupRef, authz.ReadGroup)
		if err != nil {
			return nil, err
		}
		in = project.HasNamespaceWith(namespace.Or(namespace.ID(g.ID), authz.Descendants(g.FullPath)))
		if parent.WithoutSubgroups {
			in = project.NamespaceID(g.ID)
		}
		if !p.IncludeArchived {
			in = project.And(in, project.Archived(false))
		}
	default:
		if actor.IsAnonymous() && p.Scope != "all" {
			// GET /issues defaults to created_by_me, which needs a signed-in user.
			return nil, apperr.Unauthorized()
		}
		if p.Scope == "" {
			p.Scope = "created_by_me"
		}
		in = project.IDGT(0)
	}
	vis, err := s.visibleIn(ctx, actor, in)
	if err != nil {
		return nil, err
	}
	ids, err := s.resolveTitles(ctx, p)
	if err != nil {
		return nil, err
	}
	fs, err := filters(actor, p, ids)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).Issue.Query().Where(pinned...).Where(vis...).Where(fs...), nil
}

// List returns one page of Query in order, each issue with the edges the presenter needs.
func (s *Service) List(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.Issue], error) {
	res := pagination.Result[*ent.Issue]{Page: page}
	q, err := s.Query(ctx, actor, parent, p)
	if err != nil {
		return res, err
	}
	// The count and the ids are planned for the filter's values, as the merge request list's
	// are: a generic plan, blind to which labels and milestone are asked for, may walk the
	// project's issues newest first (the (project_id, created_at, id) index) and probe each
	// one's labels, where the labels' few shared issues are the cheap start.
	// The edges of the page's rows keep their cached plans.
	count := func(ctx context.Context, q *ent.IssueQuery) (int, error) {
		n, err := q.Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(db.WithCustomPlans(ctx))
		return pagination.BoundedTotal(n), err
	}
	pageQ := order(q.Clone(), o).Offset(page.Skip()).Limit(page.Limit())
	if db.Networked(s.client) && ent.TxFromContext(ctx) == nil {
		// PostgreSQL: the count beside the page (as the project list's), each on its own
		// connection, so their round trips and their work overlap.
		err = db.Concurrently(ctx, s.client,
			func(ctx context.Context) (err error) {
				res.Total, err = count(ctx, q)
				return err
			},
			func(ctx context.Context) (err error) {
				res.Items, err = s.pageOf(db.WithCustomPlans(ctx), ctx, pageQ)
				return err
			})
		return res, err
	}
	// SQLite reads one after the other (db.Concurrently), so the page comes first: a page that
	// is not full and not past the end is the last one and gives the total, and the count
	// (which reads every match up to the bound) is not run.
	if res.Items, err = s.pageOf(db.WithCustomPlans(ctx), ctx, pageQ); err != nil {
		return res, err
	}
	if n := len(res.Items); n < page.Limit() && (n > 0 || page.Skip() == 0) {
		res.Total = pagination.BoundedTotal(page.Skip() + n)
		return res, nil
	}
	res.Total, err = count(ctx, q)
	return res, err
}

// Page returns issues skip to skip+limit of q (a Query) in the order o, read as List reads its
// pages: GraphQL's sorts that its cursor pager cannot express (nullable columns, votes,
// priorities) page through it.
func (s *Service) Page(ctx context.Context, q *ent.IssueQuery, o Order, skip, limit int) ([]*ent.Issue, error) {
	if limit <= 0 {
		return []*ent.Issue{}, nil
	}
	return s.page(ctx, order(q, o).Offset(skip).Limit(limit))
}

// page reads a page in two steps: the ids in order (the sort carries only the id and the
// order's keys), then those issues with what Load selects. One statement would compute the
// vote counts of every row the sort sees (SQLite evaluates the select list before sorting),
// not of the page's rows only.
func (s *Service) page(ctx context.Context, q *ent.IssueQuery) ([]*ent.Issue, error) {
	return s.pageOf(ctx, ctx, q)
}

// pageOf is page with the ids read in idsCtx (List's custom plans).
func (s *Service) pageOf(idsCtx, ctx context.Context, q *ent.IssueQuery) ([]*ent.Issue, error) {
	ids, err := q.IDs(idsCtx)
	if err != nil || len(ids) == 0 {
		return []*ent.Issue{}, err
	}
	rows, err := Load(db.ClientFrom(ctx, s.client).Issue.Query().Where(issue.IDIn(ids...))).All(ctx)
	if err != nil {
		return nil, err
	}
	at := make(map[int]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	byPos := make([]*ent.Issue, len(ids))
	for _, is := range rows {
		byPos[at[is.ID]] = is
	}
	out := make([]*ent.Issue, 0, len(rows))
	for _, is := range byPos {
		if is != nil { // deleted between the two reads
			out = append(out, is)
		}
	}
	return out, nil
}

// Load asks for the edges an issue is presented with, and its votes.
func Load(q *ent.IssueQuery) *ent.IssueQuery {
	return withVotes(q).WithAuthor().WithClosedBy().WithMilestone(func(mq *ent.MilestoneQuery) { mq.WithGroup() }).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		WithLabelLinks(func(lq *ent.IssueLabelQuery) { lq.WithLabel().Order(issuelabel.ByLabelField("title")) }).
		WithAssigneeLinks(func(aq *ent.IssueAssigneeQuery) { aq.WithUser().Order(issueassignee.ByID()) })
}

// Find returns the issue iid of project ref if the actor may read it (404 Issue Not Found
// otherwise, 404 Project Not Found for a project it cannot read), with the project's level.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref, iidText string) (*ent.Issue, authz.Level, error) {
	proj, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, 0, err
	}
	if err := authz.Check(actor, proj, level, readable, authz.ReadIssue); err != nil {
		return nil, 0, notFoundIfForbidden(err)
	}
	iid, err := strconv.Atoi(iidText)
	if err != nil {
		return nil, 0, apperr.NotFound("Issue")
	}
	is, err := Load(db.ClientFrom(ctx, s.client).Issue.Query().Where(issue.ProjectID(proj.ID), issue.Iid(iid))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, 0, apperr.NotFound("Issue")
	}
	if err != nil {
		return nil, 0, err
	}
	if !CanRead(actor, proj, level, is) {
		return nil, 0, apperr.NotFound("Issue")
	}
	return is, level, nil
}

// notFoundIfForbidden turns a refusal to read issues of a readable project (the feature is off
// for the actor) into 404 Issue Not Found, as GitLab's finder hides the issues then.
func notFoundIfForbidden(err error) error {
	if apperr.Is(err, apperr.KindForbidden, apperr.KindUnauthorized) {
		return apperr.NotFound("Issue")
	}
	return err
}

// CanRead reports whether the actor may read the issue in proj (level is its level there):
// read_issue, and for a confidential issue read_confidential_issues, authorship or assignment.
func CanRead(actor *authz.Actor, proj *ent.Project, level authz.Level, is *ent.Issue) bool {
	if !authz.CanProject(actor, proj, level, authz.ReadIssue) {
		return false
	}
	if !is.Confidential || authz.CanProject(actor, proj, level, authz.ReadConfidentialIssues) {
		return true
	}
	if actor.IsAnonymous() {
		return false
	}
	if is.AuthorID != nil && *is.AuthorID == actor.UserID() {
		return true
	}
	for _, a := range is.Edges.AssigneeLinks {
		if a.UserID == actor.UserID() {
			return true
		}
	}
	return false
}

// FullPath is the issue's project path; the project and its namespace must be loaded.
func FullPath(is *ent.Issue) string { return projects.FullPath(is.Edges.Project) }

// FindByID returns any issue by its global id: GET /issues/:id, administrators only (403 for
// others, as GitLab's authenticated_as_admin!); 404 Not found for an unknown id.
func (s *Service) FindByID(ctx context.Context, actor *authz.Actor, idText string) (*ent.Issue, error) {
	if !actor.IsAdmin() {
		return nil, apperr.Forbidden("")
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		return nil, apperr.Invalid("id")
	}
	is, err := Load(db.ClientFrom(ctx, s.client).Issue.Query().Where(issue.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return is, err
}

// FindVisible returns the issue with id if the actor may read it (GraphQL's node(id:)): the
// same visibility as the lists; 404 Issue Not Found otherwise.
func (s *Service) FindVisible(ctx context.Context, actor *authz.Actor, id int) (*ent.Issue, error) {
	q, err := s.Query(ctx, actor, Parent{}, ListParams{Scope: "all"})
	if err != nil {
		return nil, err
	}
	is, err := Load(q.Where(issue.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Issue")
	}
	return is, err
}
