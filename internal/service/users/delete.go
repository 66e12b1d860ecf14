package users

import (
	"context"

	"anvil/ent"
	"anvil/ent/identity"
	"anvil/ent/member"
	"anvil/ent/migrate"
	"anvil/ent/namespace"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectstar"
	"anvil/ent/usercustomattribute"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// Delete removes a user (administrators only) in one transaction: the personal namespace and its
// projects, the user's memberships, tokens, identities and custom attributes, then the account.
// Contributions that reference the user move to the Ghost User, or with hardDelete are deleted.
// A user who is the only owner of a group cannot be removed (409) unless hardDelete, which
// deletes those groups with their subgroups and projects, as GitLab does. The Ghost User
// cannot be deleted (403).
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, id int, hardDelete bool) error {
	if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		u, err := c.User.Get(ctx, id)
		if ent.IsNotFound(err) {
			return apperr.NotFound("User")
		} else if err != nil {
			return err
		}
		if u.UserType == ghostType {
			return apperr.Forbidden("")
		}
		solo, err := soleOwnedGroups(ctx, c, u.ID)
		if err != nil {
			return err
		}
		if len(solo) > 0 && !hardDelete {
			return apperr.Conflict("User cannot be removed while is the sole-owner of a group")
		}
		p, err := newPurger(ctx, c)
		if err != nil {
			return err
		}
		removed, err := s.deleteNamespaces(ctx, c, p, u.ID, solo)
		if err != nil {
			return err
		}
		// The repositories' removal is queued with the deletion (a durable job).
		for _, rp := range removed {
			if err := s.projects.RemoveRepository(ctx, rp); err != nil {
				return err
			}
		}
		if err := deleteOwned(ctx, c, p, u.ID); err != nil {
			return err
		}
		return s.handOverAndDelete(ctx, c, p, u.ID, hardDelete)
	})
}

// soleOwnedGroups returns the groups where userID is the only direct owner.
func soleOwnedGroups(ctx context.Context, c *ent.Client, userID int) ([]*ent.Namespace, error) {
	owned, err := c.Namespace.Query().Where(
		namespace.KindEQ(namespace.KindGroup),
		namespace.HasMembersWith(member.UserID(userID), member.AccessLevel(int(authz.Owner)), member.State("active")),
		namespace.Not(namespace.HasMembersWith(member.UserIDNEQ(userID), member.AccessLevel(int(authz.Owner)), member.State("active"))),
	).All(ctx)
	return owned, err
}

// deleteNamespaces deletes the user's personal namespace and the groups (with their subgroups)
// in groups, with their projects and the memberships of all of them. It returns the deleted
// projects.
func (s *Service) deleteNamespaces(ctx context.Context, c *ent.Client, p *purger, userID int, groups []*ent.Namespace) ([]*ent.Project, error) {
	preds := []predicate.Namespace{namespace.And(namespace.OwnerID(userID), namespace.KindEQ(namespace.KindUser))}
	for _, g := range groups {
		preds = append(preds, namespace.ID(g.ID), namespace.FullPathHasPrefix(g.FullPath+"/"))
	}
	nsIDs, err := c.Namespace.Query().Where(namespace.Or(preds...)).IDs(ctx)
	if err != nil || len(nsIDs) == 0 {
		return nil, err
	}
	projs, err := c.Project.Query().Where(project.NamespaceIDIn(nsIDs...)).WithNamespace().All(ctx)
	if err != nil {
		return nil, err
	}
	projectIDs := make([]int, 0, len(projs))
	for _, pr := range projs {
		projectIDs = append(projectIDs, pr.ID)
		// Other domains remove their rows first, as when the project itself is deleted.
		if err := s.projects.DeleteDependents(ctx, c, pr); err != nil {
			return nil, err
		}
	}
	// Memberships point at their source through optional columns, which a purge would only
	// clear: delete them outright.
	memberIDs, err := c.Member.Query().
		Where(member.Or(member.NamespaceIDIn(nsIDs...), member.ProjectIDIn(projectIDs...))).IDs(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.purge(ctx, migrate.MembersTable.Name, memberIDs); err != nil {
		return nil, err
	}
	if err := p.purge(ctx, migrate.ProjectsTable.Name, projectIDs); err != nil {
		return nil, err
	}
	return projs, p.purge(ctx, migrate.NamespacesTable.Name, nsIDs)
}

// deleteOwned deletes what belongs to the account alone: memberships, tokens, identities,
// custom attributes and stars (the starred projects' counts go down with them).
func deleteOwned(ctx context.Context, c *ent.Client, p *purger, userID int) error {
	if err := unstarAll(ctx, p, userID); err != nil {
		return err
	}
	steps := []struct {
		table string
		ids   func() ([]int, error)
	}{
		{migrate.MembersTable.Name, func() ([]int, error) { return c.Member.Query().Where(member.UserID(userID)).IDs(ctx) }},
		{migrate.PersonalAccessTokensTable.Name, func() ([]int, error) {
			return c.PersonalAccessToken.Query().Where(personalaccesstoken.UserID(userID)).IDs(ctx)
		}},
		{migrate.IdentitiesTable.Name, func() ([]int, error) { return c.Identity.Query().Where(identity.UserID(userID)).IDs(ctx) }},
		{migrate.UserCustomAttributesTable.Name, func() ([]int, error) {
			return c.UserCustomAttribute.Query().Where(usercustomattribute.UserID(userID)).IDs(ctx)
		}},
	}
	for _, st := range steps {
		ids, err := st.ids()
		if err != nil {
			return err
		}
		if err := p.purge(ctx, st.table, ids); err != nil {
			return err
		}
	}
	return nil
}

// handOverAndDelete moves or deletes the user's remaining references, then deletes the account.
func (s *Service) handOverAndDelete(ctx context.Context, c *ent.Client, p *purger, userID int, hard bool) error {
	ghostID := 0
	if !hard {
		used, err := p.referenced(ctx, userID)
		if err != nil {
			return err
		}
		if used {
			ghost, err := ghostUser(ctx, c)
			if err != nil {
				return err
			}
			ghostID = ghost.ID
		}
	}
	if hard || ghostID > 0 {
		if err := p.handOver(ctx, userID, ghostID, hard); err != nil {
			return err
		}
	}
	return p.purge(ctx, migrate.UsersTable.Name, []int{userID})
}

// unstarAll removes the user's stars and takes one from the star_count of each project they
// starred, in one statement each, leaving the projects' updated_at alone as starring does.
func unstarAll(ctx context.Context, p *purger, userID int) error {
	b := sql.Dialect(p.dialect)
	starred := b.Select(projectstar.FieldProjectID).From(sql.Table(projectstar.Table)).
		Where(sql.EQ(projectstar.FieldUserID, userID))
	if err := p.exec(ctx, b.Update(project.Table).Add(project.FieldStarCount, -1).
		Where(sql.In(project.FieldID, starred))); err != nil {
		return err
	}
	return p.exec(ctx, b.Delete(projectstar.Table).Where(sql.EQ(projectstar.FieldUserID, userID)))
}
