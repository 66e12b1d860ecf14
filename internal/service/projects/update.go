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
// (others' values are ignored, as GitLab drops them): an unknown storage is a validation error,
// another one schedules a storage move (GitLab's Projects::UpdateService). A visibility above
// the group's is a validation error. It returns the updated project with its View.
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
		if *a.Visibility != string(p.Visibility) {
			if err := s.settings.CheckVisibility(ctx, actor, *a.Visibility); err != nil {
				return nil, nil, err
			}
		}
	}
	if a.RepositoryStorage != nil && !actor.IsAdmin() {
		a.RepositoryStorage = nil
	}
	c := db.ClientFrom(ctx, s.client)
	e := errs{}
	validate(&a, e)
	s.validateStorage(&a, e)
	// repository_storage is never written as a column: another storage is a move.
	moveTo := ""
	if a.RepositoryStorage != nil {
		moveTo, a.RepositoryStorage = *a.RepositoryStorage, nil
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
		if movesStorage(p, moveTo) {
			if err := s.moves.ScheduleMove(ctx, p, moveTo); err != nil {
				return err
			}
		}
		up := tx.Project.UpdateOneID(p.ID)
		a.apply(up.Mutation())
		err := up.Exec(ctx)
		if ent.IsConstraintError(err) {
			return apperr.FieldError("path", msgTaken)
		}
		if err != nil {
			return err
		}
		action := Updated
		if a.Path != nil && *a.Path != p.Path {
			action = Renamed
		}
		return s.changed(ctx, tx, actor, action, p)
	})
	if err != nil {
		return nil, nil, err
	}
	return s.reload(ctx, actor, p.ID)
}

// validateStorage refuses a repository_storage that names no configured storage, with the
// Project model's validation error.
func (s *Service) validateStorage(a *Attributes, e errs) {
	if a.RepositoryStorage != nil && !s.moves.KnownStorage(*a.RepositoryStorage) {
		e.add("repository_storage", "is not included in the list")
	}
}

// movesStorage reports whether setting repository_storage to dest moves p's repository: it
// exists, sits elsewhere and is not already moving (GitLab's changing_repository_storage? and
// change_repository_storage, which ignore the value otherwise).
func movesStorage(p *ent.Project, dest string) bool {
	return dest != "" && dest != p.RepositoryStorage && p.DiskPath != "" && !p.RepositoryReadOnly
}
