package projects

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
	"anvil/internal/service/routes"
)

// Create makes a project as GitLab's create service does: a missing name or path is derived
// from the other, the namespace defaults to the creator's personal one and must allow the
// creator create_projects, personal projects count against projects_limit, a visibility above
// the group's is lowered to the group's, and name and path must be free in the namespace.
// The personal namespace's owner becomes the project's Owner member. It returns the project
// with its View.
//
// The project is visible only once its repository exists: its row is committed hidden
// (pending_delete, which every finder skips), the repository is made, and then the row is
// shown. A crash in between leaves a hidden row (and maybe a repository) that the repository
// sweep removes (repos.SweepJob), never a visible project without a repository.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.Project, *View, error) {
	if actor.IsAnonymous() {
		return nil, nil, apperr.Unauthorized()
	}
	c := db.ClientFrom(ctx, s.client)
	creator := actor
	if in.UserID != nil {
		if !actor.IsAdmin() {
			return nil, nil, apperr.Forbidden("")
		}
		u, err := c.User.Get(ctx, *in.UserID)
		if ent.IsNotFound(err) {
			return nil, nil, apperr.NotFound("User")
		}
		if err != nil {
			return nil, nil, err
		}
		creator = &authz.Actor{User: u}
	}
	a := in.Attributes
	if a.Visibility == nil {
		v := s.settings.String(ctx, "default_project_visibility")
		if !ValidVisibility(v) {
			v = "private"
		}
		a.Visibility = &v
	}
	derive(&a)

	ns, err := s.targetNamespace(ctx, c, creator, in.NamespaceID)
	if err != nil {
		return nil, nil, err
	}
	if ns != nil && ns.Kind == namespace.KindUser {
		if err := s.checkProjectsLimit(ctx, c, creator); err != nil {
			return nil, nil, err
		}
	}
	if ok, err := s.canCreateIn(ctx, creator, ns); err != nil {
		return nil, nil, err
	} else if !ok {
		return nil, nil, apperr.FieldError("namespace", "is not valid")
	}
	if ns.Kind == namespace.KindGroup {
		if visibilityRank(*a.Visibility) > visibilityRank(string(ns.Visibility)) {
			v := string(ns.Visibility)
			a.Visibility = &v
		}
		if a.SharedRunnersEnabled == nil && ns.SharedRunnersSetting != "enabled" {
			f := false
			a.SharedRunnersEnabled = &f
		}
	}
	if a.RepositoryStorage != nil && !actor.IsAdmin() {
		a.RepositoryStorage = nil
	}
	if err := s.settings.CheckVisibility(ctx, actor, *a.Visibility); err != nil {
		return nil, nil, err
	}
	e := errs{}
	validate(&a, e)
	s.validateStorage(&a, e)
	if err := checkUnique(ctx, c, ns.ID, &a, 0, e); err != nil {
		return nil, nil, err
	}
	if err := e.err(); err != nil {
		return nil, nil, err
	}

	var created *ent.Project
	err = db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		// One instant for both: a new project's last activity is its creation (each default
		// would read the clock on its own).
		at := time.Now().UTC().Truncate(time.Millisecond)
		cr := tx.Project.Create().SetNamespaceID(ns.ID).SetCreatorID(creator.User.ID).
			SetCreatedAt(at).SetUpdatedAt(at).SetLastActivityAt(at).SetPendingDelete(true)
		a.apply(cr.Mutation())
		if a.Path != nil {
			if err := routes.Claim(ctx, tx, ns.FullPath+"/"+*a.Path); err != nil {
				return err
			}
		}
		p, err := cr.Save(ctx)
		if err != nil {
			if ent.IsConstraintError(err) {
				return apperr.FieldError("path", msgTaken)
			}
			return err
		}
		if ns.Kind == namespace.KindUser && ns.OwnerID != nil {
			err := tx.Member.Create().SetProjectID(p.ID).SetUserID(*ns.OwnerID).
				SetAccessLevel(int(authz.Owner)).SetCreatedByID(creator.User.ID).Exec(ctx)
			if err != nil {
				return err
			}
		}
		created = p
		return events.Record(ctx, tx, events.ProjectCreated(p.ID, creator.User.ID))
	})
	if err != nil {
		return nil, nil, err
	}
	branch := ""
	if a.DefaultBranch != nil {
		branch = *a.DefaultBranch
	}
	storage := ""
	if a.RepositoryStorage != nil {
		storage = *a.RepositoryStorage
	}
	err = s.repos.Create(ctx, created, in.InitializeWithReadme, branch, storage)
	if err == nil {
		err = db.ClientFrom(ctx, s.client).Project.UpdateOneID(created.ID).SetPendingDelete(false).Exec(ctx)
	}
	if err != nil {
		slog.ErrorContext(ctx, "create repository", "project_id", created.ID, "err", err)
		// Undo the row, and queue the removal of whatever part of the repository was made.
		if derr := s.deleteRows(ctx, created); derr != nil {
			slog.ErrorContext(ctx, "remove project after failed repository creation", "project_id", created.ID, "err", derr)
		}
		return nil, nil, apperr.FieldError("base", "Failed to create repository")
	}
	return s.reload(ctx, actor, created.ID)
}

// targetNamespace returns the namespace a new project goes to: the given one, or the
// creator's personal namespace. An unknown id is "namespace is not valid".
func (s *Service) targetNamespace(ctx context.Context, c *ent.Client, creator *authz.Actor, id *int) (*ent.Namespace, error) {
	var (
		ns  *ent.Namespace
		err error
	)
	if id == nil {
		ns, err = c.Namespace.Query().
			Where(namespace.OwnerID(creator.User.ID), namespace.KindEQ(namespace.KindUser)).First(ctx)
	} else {
		ns, err = c.Namespace.Get(ctx, *id)
	}
	if ent.IsNotFound(err) {
		return nil, apperr.FieldError("namespace", "is not valid")
	}
	return ns, err
}

// canCreateIn reports whether creator may create projects in ns: its own personal namespace
// (administrators: any), or a group where its level meets project_creation_level.
func (s *Service) canCreateIn(ctx context.Context, creator *authz.Actor, ns *ent.Namespace) (bool, error) {
	if ns.Kind == namespace.KindUser {
		return creator.IsAdmin() || (ns.OwnerID != nil && *ns.OwnerID == creator.User.ID), nil
	}
	level, readable, err := s.policy.GroupLevel(ctx, creator, ns)
	if err != nil || !readable {
		return false, err
	}
	return authz.CanGroup(creator, ns, level, authz.CreateProjects), nil
}

// LimitReached is the attribute of the validation error that refuses a project beyond the
// creator's projects_limit (GitLab's errors[:limit_reached]).
const LimitReached = "limit_reached"

// checkProjectsLimit refuses a personal project beyond the creator's projects_limit, as a
// validation error of LimitReached.
func (s *Service) checkProjectsLimit(ctx context.Context, c *ent.Client, creator *authz.Actor) error {
	limit := creator.User.ProjectsLimit
	count, err := c.Project.Query().Where(project.PendingDelete(false),
		project.HasNamespaceWith(namespace.OwnerID(creator.User.ID), namespace.KindEQ(namespace.KindUser))).Count(ctx)
	if err != nil {
		return err
	}
	if limit-count > 0 {
		return nil
	}
	msg := "You've reached your limit of " + strconv.Itoa(limit) + " projects created. Contact your GitLab administrator."
	if limit == 0 {
		msg = "You cannot create projects in your personal namespace. Contact your GitLab administrator."
	}
	return apperr.FieldError(LimitReached, msg)
}
