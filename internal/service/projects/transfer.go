package projects

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/routes"
)

// GitLab's transfer refusals (Projects::TransferService), reported on new_namespace.
const (
	msgAlreadyInNamespace = "Project is already in this namespace."
	msgNoTransferRight    = "You don't have permission to transfer projects into that namespace."
	msgSameNameOrPath     = "Project with same name or path in target namespace already exists"
)

// Transfer moves the project ref into the namespace nsRef (id or full path): the project's
// Owner (change_namespace) moves it into a namespace it may read through a membership (404
// Namespace Not Found otherwise) and may transfer projects into (Maintainer of a group where
// it may create projects, or its own personal namespace). A refusal is a validation error on
// new_namespace with GitLab's message. The project keeps its id and repository (stored by id);
// its old full path redirects to it; a visibility above the new group's is lowered to it. It
// returns the moved project with its View.
func (s *Service) Transfer(ctx context.Context, actor *authz.Actor, ref, nsRef string) (*ent.Project, *View, error) {
	p, err := s.Find(ctx, actor, ref, authz.ChangeNamespace)
	if err != nil {
		return nil, nil, err
	}
	target, level, err := s.transferTarget(ctx, actor, nsRef)
	if err != nil {
		return nil, nil, err
	}
	refuse := func(msg string) error { return apperr.FieldError("new_namespace", msg) }
	switch {
	case target.ID == p.NamespaceID:
		return nil, nil, refuse(msgAlreadyInNamespace)
	case !authz.CanGroup(actor, target, level, authz.TransferProjects):
		return nil, nil, refuse(msgNoTransferRight)
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		taken, err := tx.Project.Query().Where(project.NamespaceID(target.ID),
			project.Or(project.PathEqualFold(p.Path), project.Name(p.Name))).Exist(ctx)
		if err != nil {
			return err
		}
		if !taken {
			// A subgroup's route would collide with the project's as well.
			taken, err = tx.Namespace.Query().Where(namespace.ParentID(target.ID), namespace.PathEqualFold(p.Path)).Exist(ctx)
			if err != nil {
				return err
			}
		}
		if taken {
			return refuse(msgSameNameOrPath)
		}
		oldFull := p.Edges.Namespace.FullPath + "/" + p.Path
		if err := routes.MoveProject(ctx, tx, p.ID, oldFull, target.FullPath+"/"+p.Path); err != nil {
			return err
		}
		up := tx.Project.UpdateOneID(p.ID).SetNamespaceID(target.ID)
		if target.Kind == namespace.KindGroup {
			if visibilityRank(string(p.Visibility)) > visibilityRank(string(target.Visibility)) {
				up.SetVisibility(project.Visibility(target.Visibility))
			}
			if target.SharedRunnersSetting != "enabled" {
				up.SetSharedRunnersEnabled(false)
			}
		}
		if err := up.Exec(ctx); err != nil {
			if ent.IsConstraintError(err) {
				return refuse(msgSameNameOrPath)
			}
			return err
		}
		if err := ensureOwnerMember(ctx, tx, p.ID, target, actor); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, Transferred, p)
	})
	if err != nil {
		return nil, nil, err
	}
	return s.Get(ctx, actor, strconv.Itoa(p.ID))
}

// transferTarget finds the namespace a project moves to and the actor's level in it: it must be
// readable through a membership (GitLab's find_namespace!), else 404 Namespace Not Found.
func (s *Service) transferTarget(ctx context.Context, actor *authz.Actor, ref string) (*ent.Namespace, authz.Level, error) {
	q := db.ClientFrom(ctx, s.client).Namespace.Query()
	if id, err := strconv.Atoi(ref); err == nil {
		q = q.Where(namespace.ID(id))
	} else {
		q = q.Where(namespace.FullPathEqualFold(ref))
	}
	ns, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, 0, apperr.NotFound("Namespace")
	}
	if err != nil {
		return nil, 0, err
	}
	level := authz.Admin
	if !actor.IsAdmin() {
		if level, err = s.policy.GroupAccess(ctx, actor, ns); err != nil {
			return nil, 0, err
		}
	}
	if !authz.CanGroup(actor, ns, level, authz.ReadNamespaceViaMembership) {
		return nil, 0, apperr.NotFound("Namespace")
	}
	return ns, level, nil
}

// ensureOwnerMember gives the owner of a personal namespace the Owner membership of a project
// moved into it, as GitLab does after a transfer.
func ensureOwnerMember(ctx context.Context, c *ent.Client, projectID int, ns *ent.Namespace, actor *authz.Actor) error {
	if ns.Kind != namespace.KindUser || ns.OwnerID == nil {
		return nil
	}
	m, err := c.Member.Query().Where(member.ProjectID(projectID), member.UserID(*ns.OwnerID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		cr := c.Member.Create().SetProjectID(projectID).SetUserID(*ns.OwnerID).SetAccessLevel(int(authz.Owner))
		if !actor.IsAnonymous() {
			cr.SetCreatedByID(actor.UserID())
		}
		return cr.Exec(ctx)
	case err != nil:
		return err
	case m.AccessLevel != int(authz.Owner):
		return c.Member.UpdateOne(m).SetAccessLevel(int(authz.Owner)).Exec(ctx)
	}
	return nil
}
