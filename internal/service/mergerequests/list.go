package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Parent is the list's parent: a project, a group (with its subgroups), or neither
// (GET /merge_requests).
type Parent struct {
	ProjectRef string
	GroupRef   string
	// WithoutSubgroups keeps a group's list to the projects directly in it (a group
	// milestone's merge requests).
	WithoutSubgroups bool
	// HideForbidden lists no merge requests of a readable project whose merge requests the
	// actor may not read, where the REST list answers 403 (GitLab's finder alone, without the
	// list's authorize!): GraphQL, a milestone's merge requests.
	HideForbidden bool
}

// Query returns the merge requests of parent the actor may read that match p (GraphQL
// paginates it). A project or group the actor cannot read is 404; a project whose merge
// requests it may not read has none (GitLab's resolver asks the finder alone).
func (s *Service) Query(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams) (*ent.MergeRequestQuery, error) {
	parent.HideForbidden = true
	q, _, err := s.query(ctx, actor, parent, p)
	return q, err
}

// query is Query, or List's query without HideForbidden. narrow reports a filter beside the
// parent and the state, one that may leave few merge requests.
func (s *Service) query(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams) (q *ent.MergeRequestQuery, narrow bool, err error) {
	var (
		in     predicate.Project
		pinned []predicate.MergeRequest
	)
	switch {
	case parent.ProjectRef != "":
		ability := authz.ReadMergeRequest
		if parent.HideForbidden {
			ability = authz.ReadProject
		}
		proj, err := s.projects.Find(ctx, actor, parent.ProjectRef, ability)
		if err != nil {
			return nil, false, err
		}
		in = project.ID(proj.ID)
		// The project's id as a literal beside the readable-projects subquery (which still
		// decides what the actor may read), as the issue list has: with project_id = ? the
		// planners see one project and can walk its indexes in the list's order, where
		// project_id IN (subquery) hides which project (docs/PERFORMANCE.md).
		pinned = append(pinned, mergerequest.ProjectID(proj.ID))
	case parent.GroupRef != "":
		g, err := s.groups.Find(ctx, actor, parent.GroupRef, authz.ReadGroup)
		if err != nil {
			return nil, false, err
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
			// GET /merge_requests defaults to created_by_me, which needs a signed-in user.
			return nil, false, apperr.Unauthorized()
		}
		if p.Scope == "" {
			p.Scope = "created_by_me"
		}
		in = project.IDGT(0)
	}
	vis, err := s.visibleIn(ctx, actor, in)
	if err != nil {
		return nil, false, err
	}
	ids, err := s.resolveTitles(ctx, p)
	if err != nil {
		return nil, false, err
	}
	fs, err := filters(actor, p, ids)
	if err != nil {
		return nil, false, err
	}
	broad := 0
	if p.State != "" && p.State != "all" {
		broad = 1 // filters puts the state first
	}
	return db.ClientFrom(ctx, s.client).MergeRequest.Query().Where(pinned...).Where(vis...).Where(fs...), len(fs) > broad, nil
}

// List returns one page of Query in order, each merge request with the edges the presenter
// needs. A project whose merge requests the actor may not read is 403 here (401 when
// anonymous), as GitLab's authorize! :read_merge_request in the REST list, unless
// parent.HideForbidden.
func (s *Service) List(ctx context.Context, actor *authz.Actor, parent Parent, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.MergeRequest], error) {
	res := pagination.Result[*ent.MergeRequest]{Page: page}
	q, narrow, err := s.query(ctx, actor, parent, p)
	if err != nil {
		return res, err
	}
	// The count and the ids are planned for the filter's values (labels, people, states): a
	// generic plan suits some filters and is many times slower for others. The page's rows and
	// edges keep their cached plans: planning each of them again cost more than it saved.
	custom := db.WithCustomPlans(ctx)
	if narrow {
		ids, n, ok, err := smallPage(custom, q, o, page)
		if err != nil {
			return res, err
		}
		if ok {
			rows, err := s.rowsOf(ctx, ids)
			res.Items, res.Total = rows, pagination.BoundedTotal(n)
			return res, err
		}
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(custom)
	if err != nil {
		return res, err
	}
	rows, err := s.pageOf(custom, ctx, order(q, o).Offset(page.Skip()).Limit(page.Limit()))
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}

// pageOf reads a page in two steps: the ids in order (the sort carries only the id and the
// order's keys), then those merge requests with what the list shows (loadPage), so that the
// vote counts and edges are read for the page's rows only.
// The ids are read in idsCtx (List's custom plans), the rows and edges in ctx.
func (s *Service) pageOf(idsCtx, ctx context.Context, q *ent.MergeRequestQuery) ([]*ent.MergeRequest, error) {
	ids, err := q.IDs(idsCtx)
	if err != nil {
		return nil, err
	}
	return s.rowsOf(ctx, ids)
}

// rowsOf reads the merge requests with ids, in that order, with what the list shape shows.
func (s *Service) rowsOf(ctx context.Context, ids []int) ([]*ent.MergeRequest, error) {
	if len(ids) == 0 {
		return []*ent.MergeRequest{}, nil
	}
	rows, err := loadPage(ctx, db.ClientFrom(ctx, s.client), ids)
	if err != nil {
		return nil, err
	}
	at := make(map[int]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	byPos := make([]*ent.MergeRequest, len(ids))
	for _, mr := range rows {
		byPos[at[mr.ID]] = mr
	}
	out := make([]*ent.MergeRequest, 0, len(rows))
	for _, mr := range byPos {
		if mr != nil { // deleted between the two reads
			out = append(out, mr)
		}
	}
	return out, nil
}

// Readable selects every merge request the actor may read (the finder's visibility rule
// alone), for the domains that list things about merge requests: to-dos, events, and the like.
func (s *Service) Readable(ctx context.Context, actor *authz.Actor) (predicate.MergeRequest, error) {
	preds, err := s.visibleIn(ctx, actor, project.IDGT(0))
	if err != nil {
		return nil, err
	}
	return mergerequest.And(preds...), nil
}

// FindVisible returns the merge request with id if the actor may read it (GraphQL's
// node(id:)): the same visibility as the lists; 404 Merge Request Not Found otherwise.
func (s *Service) FindVisible(ctx context.Context, actor *authz.Actor, id int) (*ent.MergeRequest, error) {
	q, err := s.Query(ctx, actor, Parent{}, ListParams{Scope: "all"})
	if err != nil {
		return nil, err
	}
	mr, err := Load(q.Where(mergerequest.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Merge Request")
	}
	return mr, err
}
