package groups

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/nullable"
	"anvil/internal/service/routes"
)

// UpdateInput holds the attributes of PUT /groups/:id; nil means unchanged.
type UpdateInput struct {
	Name        *string                // name
	Path        *string                // path: renaming moves the full path of every descendant
	Description nullable.Value[string] // description: null clears it (stored as "")
	Visibility  *string                // visibility
	Settings
}

// Update changes a group; it needs admin_group (Owner or administrator). A new path moves the
// full_path of the group and of all its descendants in the same transaction.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref string, in UpdateInput) (*ent.Namespace, error) {
	if err := checkEnums(in.Visibility, &in.Settings); err != nil {
		return nil, err
	}
	ns, err := s.Find(ctx, actor, ref, authz.AdminGroup)
	if err != nil {
		return nil, err
	}
	var updated *ent.Namespace
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		var parent *ent.Namespace
		if ns.ParentID != nil {
			if parent, err = c.Namespace.Get(ctx, *ns.ParentID); err != nil {
				return err
			}
		}
		if err := s.validateUpdate(ctx, c, actor, ns, parent, &in); err != nil {
			return err
		}
		up := c.Namespace.UpdateOne(ns).SetNillableName(in.Name).SetNillableShareWithGroupLock(in.ShareWithGroupLock)
		in.Description.Apply(func(d string) { up.SetDescription(d) }, func() { up.SetDescription("") })
		applySettings(up, &in.Settings)
		if in.Visibility != nil {
			up.SetVisibility(namespace.Visibility(*in.Visibility))
		}
		if in.AutoDevopsEnabled != nil {
			up.SetAutoDevopsEnabled(*in.AutoDevopsEnabled)
		}
		if in.SharedRunnersSetting != nil {
			up.SetSharedRunnersSetting(normalizeRunnersSetting(*in.SharedRunnersSetting))
		}
		oldFull := ns.FullPath
		if in.Path != nil && *in.Path != ns.Path {
			newFull := *in.Path
			if parent != nil {
				newFull = parent.FullPath + "/" + *in.Path
			}
			up.SetPath(*in.Path).SetFullPath(newFull)
			if err := routes.MoveNamespace(ctx, c, ns.ID, oldFull, newFull); err != nil {
				return err
			}
		}
		saved, err := up.Save(ctx)
		if ent.IsConstraintError(err) {
			return apperr.FieldError("path", msgTaken)
		}
		if err != nil {
			return err
		}
		if err := cascade(ctx, c, oldFull, saved, &in); err != nil {
			return err
		}
		saved.Edges.Parent = parent
		updated = saved
		return nil
	})
	if err != nil {
		return nil, err
	}
	return updated, nil
}

// validateUpdate applies the model validations that an update can break.
func (s *Service) validateUpdate(ctx context.Context, c *ent.Client, actor *authz.Actor, ns, parent *ent.Namespace, in *UpdateInput) error {
	e := fieldErrors{}
	if in.Name != nil && *in.Name != ns.Name {
		validateName(e, *in.Name)
	}
	if in.Path != nil && *in.Path != ns.Path {
		validatePath(e, *in.Path, parent == nil)
	}
	validateDescription(e, in.Description.Ptr())
	in.validate(e)
	if in.Visibility != nil && namespace.Visibility(*in.Visibility) != ns.Visibility {
		if err := s.settings.CheckVisibility(ctx, actor, *in.Visibility); err != nil {
			return err
		}
		if err := checkVisibility(ctx, c, e, ns, parent, namespace.Visibility(*in.Visibility)); err != nil {
			return err
		}
	}
	if in.SharedRunnersSetting != nil && parent != nil {
		checkRunnersSetting(e, normalizeRunnersSetting(*in.SharedRunnersSetting), parent.SharedRunnersSetting)
	}
	if in.ShareWithGroupLock != nil && !*in.ShareWithGroupLock && ns.ShareWithGroupLock && parent != nil && parent.ShareWithGroupLock {
		// Only the parent's owner may lift a lock the parent imposes.
		level, _, err := s.policy.GroupLevel(ctx, actor, parent)
		if err != nil {
			return err
		}
		if !authz.CanGroup(actor, parent, level, authz.AdminGroup) {
			e.add("share_with_group_lock", msgLockByOwner)
		}
	}
	if len(e) > 0 {
		return e.err()
	}
	name := ""
	if in.Name != nil && *in.Name != ns.Name {
		name = *in.Name
	}
	path := ns.Path
	if in.Path != nil {
		path = *in.Path
	}
	if name == "" && path == ns.Path {
		return nil
	}
	return checkUnique(ctx, c, parent, name, path, ns.ID)
}

// checkVisibility enforces that a group is no more visible than its parent and no less visible
// than its descendants and their projects.
func checkVisibility(ctx context.Context, c *ent.Client, e fieldErrors, ns, parent *ent.Namespace, v namespace.Visibility) error {
	if parent != nil && visibilityRank(v) > visibilityRank(parent.Visibility) {
		e.add("visibility_level", msgParentVisibility(v, parent.Visibility))
	}
	higherP := []project.Visibility{project.VisibilityPublic}
	higherG := []namespace.Visibility{namespace.VisibilityPublic}
	if v == namespace.VisibilityPrivate {
		higherP = append(higherP, project.VisibilityInternal)
		higherG = append(higherG, namespace.VisibilityInternal)
	}
	if v != namespace.VisibilityPublic {
		// GitLab looks at direct projects and subgroups only; the whole subtree is checked here
		// so rows written around the rules (imports, fixtures) cannot slip through.
		under := namespace.FullPathHasPrefix(ns.FullPath + "/")
		found, err := c.Project.Query().Where(project.PendingDelete(false), project.VisibilityIn(higherP...),
			project.HasNamespaceWith(namespace.Or(namespace.ID(ns.ID), under))).Exist(ctx)
		if err != nil {
			return err
		}
		if found {
			e.add("visibility_level", msgProjectsVisibility(v))
		}
		found, err = c.Namespace.Query().Where(under, namespace.VisibilityIn(higherG...)).Exist(ctx)
		if err != nil {
			return err
		}
		if found {
			e.add("visibility_level", msgSubgroupsVisibility(v))
		}
	}
	return nil
}

// cascade carries an update down the hierarchy: a moved full path, an enabled
// share_with_group_lock, and shared runners disabled without override.
func cascade(ctx context.Context, c *ent.Client, oldFull string, ns *ent.Namespace, in *UpdateInput) error {
	if ns.FullPath != oldFull {
		desc, err := c.Namespace.Query().Where(namespace.FullPathHasPrefix(oldFull+"/")).
			Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
		if err != nil {
			return err
		}
		for _, d := range desc {
			moved := ns.FullPath + d.FullPath[len(oldFull):]
			if err := c.Namespace.UpdateOneID(d.ID).SetFullPath(moved).Exec(ctx); err != nil {
				if ent.IsConstraintError(err) {
					return apperr.FieldError("path", msgTaken)
				}
				return err
			}
		}
	}
	under := namespace.FullPathHasPrefix(ns.FullPath + "/")
	if in.ShareWithGroupLock != nil && *in.ShareWithGroupLock {
		if err := c.Namespace.Update().Where(under).SetShareWithGroupLock(true).Exec(ctx); err != nil {
			return err
		}
	}
	if in.SharedRunnersSetting != nil && ns.SharedRunnersSetting == "disabled_and_unoverridable" {
		if err := c.Namespace.Update().Where(under).SetSharedRunnersSetting("disabled_and_unoverridable").Exec(ctx); err != nil {
			return err
		}
		err := c.Project.Update().
			Where(project.HasNamespaceWith(namespace.Or(namespace.ID(ns.ID), under))).
			SetSharedRunnersEnabled(false).Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}
