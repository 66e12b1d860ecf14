package projects

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/routes"
)

// Update changes the project ref names (admin_project, Maintainer). Renaming needs
// rename_project and any visibility change change_visibility_level (both Owner); a new path
// keeps the id and the repository location. Only administrators may move repository_storage
// (others' values are ignored, as GitLab drops them). A visibility above the group's is a
// validation error. It returns the updated project with its View.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref string, in UpdateInput) (*ent.Project, *View, error) {
	p, err := s.Find(ctx, actor, ref, authz.AdminProject)
	if err != nil {
		return nil, nil, err
	}
	a := in.Attributes
	if a.Name != nil && *a.Name != "" {
		if err := s.policy.Project(ctx, actor, p, authz.RenameProject); err != nil {
			return nil, nil, err
		}
	}
	if a.Visibility != nil {
		if err := s.policy.Project(ctx, actor, p, authz.ChangeVisibility); err != nil {
			return nil, nil, err
		}
	}
	if a.RepositoryStorage != nil && !actor.IsAdmin() {
		a.RepositoryStorage = nil
	}
	c := db.ClientFrom(ctx, s.client)
	e := errs{}
	validate(&a, e)
	s.checkStorage(&a, e)
	if a.RepositoryStorage != nil && *a.RepositoryStorage == p.RepositoryStorage {
		a.RepositoryStorage = nil
	} else if a.RepositoryStorage != nil && e["repository_storage"] == nil {
		// Another storage is a repository storage move (not yet implemented): the column
		// is left alone, since writing it would point the project at no repository.
		a.RepositoryStorage = nil
	}
	if a.Visibility != nil {
		if ns := p.Edges.Namespace; ns != nil && ns.Kind == namespace.KindGroup &&
			visibilityRank(*a.Visibility) > visibilityRank(string(ns.Visibility)) {
			e.add("visibility_level", *a.Visibility+" is not allowed in a "+string(ns.Visibility)+" group.")
		}
	}
	if err := checkUnique(ctx, c, p.NamespaceID, &a, p.ID, e); err != nil {
		return nil, nil, err
	}
	if err := e.err(); err != nil {
		return nil, nil, err
	}
	if a.DefaultBranch != nil && *a.DefaultBranch != p.DefaultBranch {
		if err := s.repos.SetDefaultBranch(ctx, p, *a.DefaultBranch); err != nil {
			return nil, nil, err
		}
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if a.Path != nil && *a.Path != p.Path {
			ns := p.Edges.Namespace.FullPath
			if err := routes.MoveProject(ctx, tx, p.ID, ns+"/"+p.Path, ns+"/"+*a.Path); err != nil {
				return err
			}
		}
		up := tx.Project.UpdateOneID(p.ID)
		a.apply(up.Mutation())
		err := up.Exec(ctx)
		if ent.IsConstraintError(err) {
			return apperr.FieldError("path", msgTaken)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return s.reload(ctx, actor, p.ID)
}
