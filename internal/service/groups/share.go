package groups

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// ShareInput holds the attributes of POST /groups/:id/share.
type ShareInput struct {
	GroupID     int        // group_id: the invited group
	GroupAccess int        // group_access: the most the invited group's members get
	ExpiresAt   *time.Time // expires_at: the share ends after this day
}

// Share shares the group ref with another group: the invited group's members get at most
// GroupAccess in ref and everything below it. It needs admin_group_member on ref and read_group
// on the invited group; as in GitLab a share the actor may not make is {"message":"Not Found"}
// (404) and a repeated one is 409.
func (s *Service) Share(ctx context.Context, actor *authz.Actor, ref string, in ShareInput) (*ent.Namespace, error) {
	if !authz.ValidMemberLevel(in.GroupAccess) {
		return nil, apperr.NotAllowedValue("group_access")
	}
	shared, err := s.Find(ctx, actor, ref, authz.ReadGroup)
	if err != nil {
		return nil, err
	}
	invited, err := s.Find(ctx, actor, itoa(in.GroupID), authz.ReadGroup)
	if err != nil {
		return nil, err
	}
	level, _, err := s.policy.GroupLevel(ctx, actor, shared)
	if err != nil {
		return nil, err
	}
	if !authz.CanGroup(actor, shared, level, authz.AdminGroupMember) {
		return nil, apperr.NotFoundMessage("Not Found")
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		exists, err := c.GroupGroupLink.Query().
			Where(groupgrouplink.SharedGroupID(shared.ID), groupgrouplink.SharedWithGroupID(invited.ID)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return alreadyShared()
		}
		err = c.GroupGroupLink.Create().SetSharedGroupID(shared.ID).SetSharedWithGroupID(invited.ID).
			SetGroupAccess(in.GroupAccess).SetNillableExpiresAt(in.ExpiresAt).Exec(ctx)
		if ent.IsConstraintError(err) {
			return alreadyShared()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return shared, nil
}

func alreadyShared() error {
	return apperr.Conflict("Shared group The group has already been shared with this group")
}

// Unshare ends the share of the group ref with the group groupID: 404 Group Link Not Found when
// there is none. Removing it needs admin_group_member on ref (403 otherwise; GitLab answers 204
// without removing anything).
func (s *Service) Unshare(ctx context.Context, actor *authz.Actor, ref string, groupID int) error {
	shared, err := s.Find(ctx, actor, ref, authz.ReadGroup)
	if err != nil {
		return err
	}
	c := db.ClientFrom(ctx, s.client)
	link, err := c.GroupGroupLink.Query().
		Where(groupgrouplink.SharedGroupID(shared.ID), groupgrouplink.SharedWithGroupID(groupID)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("Group Link")
	}
	if err != nil {
		return err
	}
	if err := s.policy.Group(ctx, actor, shared, authz.AdminGroupMember); err != nil {
		return err
	}
	return c.GroupGroupLink.DeleteOne(link).Exec(ctx)
}
