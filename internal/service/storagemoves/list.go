package storagemoves

import (
	"context"

	"anvil/ent"
	"anvil/ent/projectrepositorystoragemove"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
)

// List is GET /project_repository_storage_moves, or GET /projects/:id/repository_storage_moves
// when projectRef is not empty (administrators): one page, newest first, with each move's
// project and its namespace.
func (s *Service) List(ctx context.Context, actor *authz.Actor, projectRef string, page pagination.Offset) (pagination.Result[*ent.ProjectRepositoryStorageMove], *projects.View, error) {
	var r pagination.Result[*ent.ProjectRepositoryStorageMove]
	q, err := s.query(ctx, actor, projectRef)
	if err != nil {
		return r, nil, err
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return r, nil, err
	}
	rows, err := q.Order(ent.Desc(projectrepositorystoragemove.FieldCreatedAt), ent.Desc(projectrepositorystoragemove.FieldID)).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, nil, err
	}
	v, err := s.view(ctx, actor, rows...)
	if err != nil {
		return r, nil, err
	}
	return pagination.Result[*ent.ProjectRepositoryStorageMove]{Items: rows, Total: pagination.BoundedTotal(n), Page: page}, v, nil
}

// Get is GET /project_repository_storage_moves/:id, or the per-project form when projectRef is
// not empty (administrators); 404 Not found for a move that does not exist (or is another
// project's).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, projectRef string, id int) (*ent.ProjectRepositoryStorageMove, *projects.View, error) {
	q, err := s.query(ctx, actor, projectRef)
	if err != nil {
		return nil, nil, err
	}
	m, err := q.Where(projectrepositorystoragemove.ID(id)).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, nil, err
	}
	v, err := s.view(ctx, actor, m)
	return m, v, err
}

// view is the View of the moves' projects (their edges loaded) for presentation.
func (s *Service) view(ctx context.Context, actor *authz.Actor, moves ...*ent.ProjectRepositoryStorageMove) (*projects.View, error) {
	rows := make([]*ent.Project, 0, len(moves))
	for _, m := range moves {
		if m.Edges.Project != nil {
			rows = append(rows, m.Edges.Project)
		}
	}
	return s.projects.IdentityView(ctx, actor, rows)
}

// query starts the moves an administrator asked for: all, or one project's (404 Project Not
// Found for a project that does not exist).
func (s *Service) query(ctx context.Context, actor *authz.Actor, projectRef string) (*ent.ProjectRepositoryStorageMoveQuery, error) {
	if err := authz.CheckAdmin(actor); err != nil {
		return nil, err
	}
	q := db.ClientFrom(ctx, s.client).ProjectRepositoryStorageMove.Query()
	if projectRef != "" {
		p, err := s.projects.Lookup(ctx, projectRef)
		if err != nil {
			return nil, err
		}
		q.Where(projectrepositorystoragemove.ProjectID(p.ID))
	}
	return q, nil
}
