package groups

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/routes"
)

// CreateInput holds the attributes of POST /groups; nil means not given.
type CreateInput struct {
	Name        string  // name (required)
	Path        string  // path (required)
	ParentID    *int    // parent_id: create a subgroup
	Description *string // description
	Visibility  *string // visibility; default: the instance's default_group_visibility
	Settings
}

// Create makes a group and makes the actor its Owner, in one transaction. A top-level group
// needs the user's can_create_group (or an administrator); a subgroup needs create_subgroup on
// the parent (404 Group Not Found when the parent is invisible, 403 otherwise). Attribute
// problems are model validation errors ({"path":["has already been taken"]}).
func (s *Service) Create(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.Namespace, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	if err := checkEnums(in.Visibility, &in.Settings); err != nil {
		return nil, err
	}
	var parent *ent.Namespace
	if in.ParentID != nil {
		p, err := s.Find(ctx, actor, itoa(*in.ParentID), authz.CreateSubgroup)
		if err != nil {
			return nil, err
		}
		parent = p
	} else if !actor.IsAdmin() && !actor.User.CanCreateGroup {
		return nil, apperr.Forbidden("")
	}
	visibility := namespace.Visibility(s.settings.String(ctx, "default_group_visibility"))
	if in.Visibility != nil {
		visibility = namespace.Visibility(*in.Visibility)
	}
	if namespace.VisibilityValidator(visibility) != nil {
		visibility = namespace.VisibilityPrivate
	}
	if err := s.settings.CheckVisibility(ctx, actor, string(visibility)); err != nil {
		return nil, err
	}
	e := fieldErrors{}
	validateName(e, in.Name)
	validatePath(e, in.Path, parent == nil)
	validateDescription(e, in.Description)
	in.validate(e)
	runners := "enabled"
	if parent != nil {
		if visibilityRank(visibility) > visibilityRank(parent.Visibility) {
			e.add("visibility_level", msgParentVisibility(visibility, parent.Visibility))
		}
		runners = parent.SharedRunnersSetting // inherited unless given
	}
	if in.SharedRunnersSetting != nil {
		runners = normalizeRunnersSetting(*in.SharedRunnersSetting)
		if parent != nil {
			checkRunnersSetting(e, runners, parent.SharedRunnersSetting)
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	var created *ent.Namespace
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := checkUnique(ctx, c, parent, in.Name, in.Path, 0); err != nil {
			return err
		}
		full := in.Path
		cr := c.Namespace.Create().SetName(in.Name).SetPath(in.Path).SetKind(namespace.KindGroup).
			SetVisibility(visibility).SetNillableDescription(in.Description).
			SetSharedRunnersSetting(runners).SetNillableAutoDevopsEnabled(in.AutoDevopsEnabled).
			SetNillableShareWithGroupLock(in.ShareWithGroupLock)
		if parent != nil {
			full = parent.FullPath + "/" + in.Path
			cr.SetParentID(parent.ID)
			if parent.ShareWithGroupLock {
				cr.SetShareWithGroupLock(true) // a locked parent locks its new subgroups
			}
		}
		applySettings(cr, &in.Settings)
		if err := routes.Claim(ctx, c, full); err != nil {
			return err
		}
		ns, err := cr.SetFullPath(full).Save(ctx)
		if ent.IsConstraintError(err) {
			return apperr.FieldError("path", msgTaken)
		}
		if err != nil {
			return err
		}
		// GitLab adds the creator as Owner without naming who added the membership, so the
		// member shape leaves created_by out for it.
		if err := c.Member.Create().SetUserID(actor.UserID()).SetNamespaceID(ns.ID).
			SetAccessLevel(int(authz.Owner)).Exec(ctx); err != nil {
			return err
		}
		ns.Edges.Parent = parent
		created = ns
		return nil
	})
	return created, err
}

// checkUnique enforces GitLab's uniqueness rules for a group's path and name: the full path
// must be free among all namespaces (user namespaces included) and, inside a parent, must not
// be a project's path either; sibling groups must have different names.
func checkUnique(ctx context.Context, c *ent.Client, parent *ent.Namespace, name, path string, exceptID int) error {
	e := fieldErrors{}
	full := path
	if parent != nil {
		full = parent.FullPath + "/" + path
	}
	taken, err := c.Namespace.Query().Where(namespace.FullPathEqualFold(full), namespace.IDNEQ(exceptID)).Exist(ctx)
	if err != nil {
		return err
	}
	if !taken && parent != nil {
		taken, err = c.Project.Query().Where(project.NamespaceID(parent.ID), project.PathEqualFold(path)).Exist(ctx)
		if err != nil {
			return err
		}
	}
	if parent != nil && name != "" {
		dup, err := c.Namespace.Query().Where(namespace.ParentID(parent.ID), namespace.Name(name), namespace.IDNEQ(exceptID)).Exist(ctx)
		if err != nil {
			return err
		}
		if dup {
			e.add("name", msgTaken)
		}
	}
	if taken {
		e.add("path", msgTaken)
	}
	return e.err()
}

// parentPath is the full path of a namespace's parent, or "" for a top-level namespace.
func parentPath(full string) string {
	if i := strings.LastIndexByte(full, '/'); i > 0 {
		return full[:i]
	}
	return ""
}
