package projects

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/projectgrouplink"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// ShareInput is POST /projects/:id/share.
type ShareInput struct {
	GroupID     int
	GroupAccess int // a member access level
	ExpiresAt   *time.Time
}

// Share gives the members of a group access to the project ref names, up to GroupAccess
// (admin_project). It fails with 400 when the project's group locks sharing, 403 when granting
// Owner without manage_owners, 404 "Not Found" when the group does not exist or the caller
// cannot see it, and 409 when the project already is shared with the group or the group is
// the project's own group or an ancestor of it.
func (s *Service) Share(ctx context.Context, actor *authz.Actor, ref string, in ShareInput) (*ent.ProjectGroupLink, error) {
	p, err := s.Find(ctx, actor, ref, authz.AdminProject)
	if err != nil {
		return nil, err
	}
	if !authz.ValidMemberLevel(in.GroupAccess) {
		return nil, apperr.NotAllowedValue("group_access")
	}
	ns := p.Edges.Namespace
	if ns.Kind == namespace.KindGroup && ns.ShareWithGroupLock {
		return nil, apperr.Refused("The project sharing with group is disabled")
	}
	if authz.Level(in.GroupAccess) == authz.Owner {
		if err := s.policy.Project(ctx, actor, p, authz.ManageOwners); err != nil {
			return nil, apperr.Forbidden("")
		}
	}
	c := db.ClientFrom(ctx, s.client)
	g, err := c.Namespace.Query().Where(namespace.ID(in.GroupID), namespace.KindEQ(namespace.KindGroup)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if g == nil {
		return nil, apperr.NotFoundMessage("Not Found")
	}
	if _, readable, err := s.policy.GroupLevel(ctx, actor, g); err != nil {
		return nil, err
	} else if !readable {
		return nil, apperr.NotFoundMessage("Not Found")
	}
	if ns.Kind == namespace.KindGroup {
		for _, anc := range authz.Ancestors(ns.FullPath) {
			if anc == g.FullPath {
				return nil, apperr.Conflict("Project cannot be shared with the group it is in or one of its ancestors.")
			}
		}
	}
	var link *ent.ProjectGroupLink
	err = db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		exists, err := tx.ProjectGroupLink.Query().
			Where(projectgrouplink.ProjectID(p.ID), projectgrouplink.GroupID(g.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return apperr.Conflict("Project already shared with this group")
		}
		link, err = tx.ProjectGroupLink.Create().SetProjectID(p.ID).SetGroupID(g.ID).
			SetGroupAccess(in.GroupAccess).SetNillableExpiresAt(in.ExpiresAt).Save(ctx)
		if ent.IsConstraintError(err) {
			return apperr.Conflict("Project already shared with this group")
		}
		return err
	})
	return link, err
}

// Unshare removes the share of the project ref names with a group (admin_project): 404 Group
// Link Not Found when there is none.
func (s *Service) Unshare(ctx context.Context, actor *authz.Actor, ref string, groupID int) error {
	p, err := s.Find(ctx, actor, ref, authz.AdminProject)
	if err != nil {
		return err
	}
	n, err := db.ClientFrom(ctx, s.client).ProjectGroupLink.Delete().
		Where(projectgrouplink.ProjectID(p.ID), projectgrouplink.GroupID(groupID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("Group Link")
	}
	return nil
}
