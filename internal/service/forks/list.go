package forks

import (
	"context"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/projects"
)

// List returns one page of the direct forks of the project ref names that actor may see,
// filtered and ordered by p like any project listing (GET /projects/:id/forks). The source
// must be visible: 404 Project Not Found otherwise.
func (s *Service) List(ctx context.Context, actor *authz.Actor, ref string, p projects.ListParams, page projects.Page) (*projects.Listing, error) {
	src, err := s.projects.Find(ctx, actor, ref, authz.ReadProject)
	if err != nil {
		return nil, err
	}
	ids, err := db.ClientFrom(ctx, s.client).Project.Query().
		Where(project.ForkedFromID(src.ID), project.PendingDelete(false)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		// No forks: an empty page (the project finder reads an empty id list as "no filter").
		total := 0
		if page.Keyset {
			total = -1
		}
		return &projects.Listing{Result: pagination.Result[*ent.Project]{Page: page.Offset, Total: total}, View: &projects.View{Actor: actor}}, nil
	}
	p.IDs = ids
	return s.projects.List(ctx, actor, p, page)
}
