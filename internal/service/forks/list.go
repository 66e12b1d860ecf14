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

// ListParams are the filters of GET /projects/:id/forks: the project whose forks are listed,
// and the filters of every project listing.
type ListParams struct {
	// Project is the id or full path of the forked project (:id).
	Project string
	projects.ListParams
}

// List returns one page of the direct forks of p.Project that actor may see, filtered, ordered
// and paged like any project listing (GET /projects/:id/forks), keyset pages included (id order
// only, as GitLab). The source must be visible: 404 Project Not Found otherwise.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o projects.Order, page pagination.Page) (pagination.Result[*ent.Project], *projects.View, error) {
	empty := pagination.Result[*ent.Project]{Page: page.Offset, Keyset: page.Keyset}
	if page.Keyset && o.By != projects.KeysetOrder {
		return empty, nil, projects.KeysetUnavailable()
	}
	src, err := s.projects.Find(ctx, actor, p.Project, authz.ReadProject)
	if err != nil {
		return empty, nil, err
	}
	ids, err := db.ClientFrom(ctx, s.client).Project.Query().
		Where(project.ForkedFromID(src.ID), project.PendingDelete(false)).IDs(ctx)
	if err != nil {
		return empty, nil, err
	}
	if len(ids) == 0 {
		// No forks: an empty page (the project finder reads an empty id list as "no filter").
		if page.Keyset {
			empty.Total = -1
		}
		return empty, &projects.View{Actor: actor}, nil
	}
	p.IDs = ids
	return s.projects.List(ctx, actor, p.ListParams, o, page)
}
