package groups

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
	"anvil/internal/service/users"
)

// GitLab's group transfer refusals (Groups::TransferService), each answered
// "Transfer failed: <reason>".
const (
	msgAlreadyRoot      = "Group is already a root group."
	msgSameParent       = "Group is already associated to the parent group."
	msgNotEnoughRights  = "You don't have enough permissions."
	msgSamePathInParent = "The parent group already has a subgroup or a project with the same path."
	msgIntoSubgroup     = "Cannot transfer group to one of its subgroup."
)

// refuse is a refused group transfer, worded as GitLab's transfer service words it.
func refuse(reason string) error { return apperr.Refused("Transfer failed: " + reason) }

// Transfer moves the group ref under the group parentID, or makes it a top-level group when
// parentID is nil (POST /groups/:id/transfer). The group must be readable (404) and
// administered by the actor (admin_group, 403); the new parent must be readable (404 Group Not
// Found). GitLab's rules then refuse ("Transfer failed: <reason>"): already top-level, same parent, no
// create_subgroup on the parent (can_create_group for the top level), a namespace or project
// with the same path there, or a parent inside the group itself. The group and everything below
// it move in one transaction: full paths follow, each old path redirects, a visibility above
// the new parent's is lowered to it, and a group made top-level without an Owner gets the actor
// as its Owner. Repositories are stored by project id and stay where they are.
func (s *Service) Transfer(ctx context.Context, actor *authz.Actor, ref string, parentID *int) (*ent.Namespace, error) {
	g, err := s.Find(ctx, actor, ref, authz.AdminGroup)
	if err != nil {
		return nil, err
	}
	var parent *ent.Namespace
	if parentID != nil {
		if parent, err = s.Find(ctx, actor, strconv.Itoa(*parentID), authz.ReadGroup); err != nil {
			return nil, err
		}
	}
	if err := s.checkTransfer(ctx, actor, g, parent); err != nil {
		return nil, err
	}
	var moved *ent.Namespace
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		newFull := g.Path
		if parent != nil {
			newFull = parent.FullPath + "/" + g.Path
		}
		if err := routes.MoveNamespace(ctx, c, g.ID, g.FullPath, newFull); err != nil {
			return err
		}
		up := c.Namespace.UpdateOneID(g.ID).SetFullPath(newFull)
		if parent != nil {
			up.SetParentID(parent.ID)
		} else {
			up.ClearParentID()
		}
		saved, err := up.Save(ctx)
		if ent.IsConstraintError(err) {
			return refuse(msgSamePathInParent)
		}
		if err != nil {
			return err
		}
		if err := movePaths(ctx, c, g.FullPath, newFull); err != nil {
			return err
		}
		if parent != nil {
			if err := inheritFromParent(ctx, c, saved, parent); err != nil {
				return err
			}
		} else if err := ensureOwner(ctx, c, saved, actor); err != nil {
			return err
		}
		moved, err = c.Namespace.Get(ctx, g.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return moved, nil
}

// checkTransfer applies GitLab's transfer rules in its order.
func (s *Service) checkTransfer(ctx context.Context, actor *authz.Actor, g, parent *ent.Namespace) error {
	switch {
	case parent == nil && g.ParentID == nil:
		return refuse(msgAlreadyRoot)
	case parent != nil && g.ParentID != nil && *g.ParentID == parent.ID:
		return refuse(msgSameParent)
	}
	if parent != nil {
		level, _, err := s.policy.GroupLevel(ctx, actor, parent)
		if err != nil {
			return err
		}
		if !authz.CanGroup(actor, parent, level, authz.CreateSubgroup) {
			return refuse(msgNotEnoughRights)
		}
	} else if !actor.IsAdmin() && !actor.User.CanCreateGroup {
		return refuse(msgNotEnoughRights)
	}
	c := db.ClientFrom(ctx, s.client)
	samePath := c.Namespace.Query().Where(namespace.PathEqualFold(g.Path), namespace.IDNEQ(g.ID))
	if parent != nil {
		samePath = samePath.Where(namespace.ParentID(parent.ID))
	} else {
		samePath = samePath.Where(namespace.ParentIDIsNil())
	}
	taken, err := samePath.Exist(ctx)
	if err != nil {
		return err
	}
	if !taken && parent != nil {
		taken, err = c.Project.Query().Where(project.NamespaceID(parent.ID), project.PathEqualFold(g.Path)).Exist(ctx)
		if err != nil {
			return err
		}
	}
	if taken {
		return refuse(msgSamePathInParent)
	}
	if parent != nil && (parent.ID == g.ID || isBelow(parent.FullPath, g.FullPath)) {
		return refuse(msgIntoSubgroup)
	}
	if parent == nil && users.ReservedPath(g.Path, true) {
		return refuse("Validation failed: Path " + users.ReservedMessage(g.Path))
	}
	return nil
}

// isBelow reports whether the full path p lies under the full path of root.
func isBelow(p, root string) bool {
	return len(p) > len(root) && p[len(root)] == '/' && p[:len(root)] == root
}

// movePaths moves the full paths of the namespaces below oldFull under newFull.
func movePaths(ctx context.Context, c *ent.Client, oldFull, newFull string) error {
	below, err := c.Namespace.Query().Where(namespace.FullPathHasPrefix(oldFull+"/")).
		Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
	if err != nil {
		return err
	}
	for _, d := range below {
		if err := c.Namespace.UpdateOneID(d.ID).SetFullPath(newFull + d.FullPath[len(oldFull):]).Exec(ctx); err != nil {
			if ent.IsConstraintError(err) {
				return refuse(msgSamePathInParent)
			}
			return err
		}
	}
	return nil
}

// inheritFromParent applies what a new parent imposes on the moved group g and everything
// below it: no more visibility than the parent, and no shared runners setting above the
// parent's.
func inheritFromParent(ctx context.Context, c *ent.Client, g, parent *ent.Namespace) error {
	subtree := namespace.Or(namespace.ID(g.ID), namespace.FullPathHasPrefix(g.FullPath+"/"))
	if visibilityRank(g.Visibility) > visibilityRank(parent.Visibility) {
		var higher []namespace.Visibility
		var higherP []project.Visibility
		for _, v := range []namespace.Visibility{namespace.VisibilityInternal, namespace.VisibilityPublic} {
			if visibilityRank(v) > visibilityRank(parent.Visibility) {
				higher = append(higher, v)
				higherP = append(higherP, project.Visibility(v))
			}
		}
		if err := c.Namespace.Update().Where(subtree, namespace.VisibilityIn(higher...)).
			SetVisibility(parent.Visibility).Exec(ctx); err != nil {
			return err
		}
		if err := c.Project.Update().Where(project.HasNamespaceWith(subtree), project.VisibilityIn(higherP...)).
			SetVisibility(project.Visibility(parent.Visibility)).Exec(ctx); err != nil {
			return err
		}
	}
	if runnersRank(g.SharedRunnersSetting) > runnersRank(parent.SharedRunnersSetting) {
		if err := c.Namespace.UpdateOneID(g.ID).SetSharedRunnersSetting(parent.SharedRunnersSetting).Exec(ctx); err != nil {
			return err
		}
		if parent.SharedRunnersSetting == "disabled_and_unoverridable" {
			if err := c.Namespace.Update().Where(subtree).SetSharedRunnersSetting(parent.SharedRunnersSetting).Exec(ctx); err != nil {
				return err
			}
			if err := c.Project.Update().Where(project.HasNamespaceWith(subtree)).SetSharedRunnersEnabled(false).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// runnersRank orders shared runners settings from most to least restrictive.
func runnersRank(setting string) int {
	switch setting {
	case "disabled_and_unoverridable":
		return 0
	case "disabled_and_overridable", "disabled_with_override":
		return 1
	}
	return 2
}

// ensureOwner makes the actor the Owner of a group made top-level without a direct Owner, as
// GitLab does.
func ensureOwner(ctx context.Context, c *ent.Client, g *ent.Namespace, actor *authz.Actor) error {
	if actor.IsAnonymous() {
		return nil
	}
	owned, err := c.Member.Query().Where(member.NamespaceID(g.ID), member.AccessLevel(int(authz.Owner)), member.State("active")).Exist(ctx)
	if err != nil || owned {
		return err
	}
	m, err := c.Member.Query().Where(member.NamespaceID(g.ID), member.UserID(actor.UserID())).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return c.Member.Create().SetNamespaceID(g.ID).SetUserID(actor.UserID()).SetAccessLevel(int(authz.Owner)).Exec(ctx)
	case err != nil:
		return err
	}
	return c.Member.UpdateOne(m).SetAccessLevel(int(authz.Owner)).SetState("active").Exec(ctx)
}
