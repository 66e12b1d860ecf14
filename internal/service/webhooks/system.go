package webhooks

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/hook"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/projects"
)

// System events reach system hooks whatever path created or removed the project, user or
// group: they are fired by ent hooks on those entities, inside the transaction of the write
// (the mutation's own), so that no service has to remember to call them.

// registerSystemEvents installs the ent hooks that fire project_create, project_destroy,
// user_create, user_destroy, group_create and group_destroy.
func (s *Service) registerSystemEvents() {
	s.Client.Project.Use(func(next ent.Mutator) ent.Mutator {
		return hook.ProjectFunc(func(ctx context.Context, m *ent.ProjectMutation) (ent.Value, error) {
			ctx = withMutationTx(ctx, m.Tx)
			var gone []*ent.Project
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				ids, err := m.IDs(ctx)
				if err != nil {
					return nil, err
				}
				if gone, err = m.Client().Project.Query().Where(project.IDIn(ids...)).WithNamespace().All(ctx); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			if m.Op().Is(ent.OpCreate) {
				p, ok := v.(*ent.Project)
				if !ok {
					return v, nil
				}
				ns, err := m.Client().Namespace.Get(ctx, p.NamespaceID)
				if err != nil {
					return nil, err
				}
				p.Edges.Namespace = ns
				return v, s.projectSystemEvent(ctx, m.Client(), "project_create", p, "")
			}
			for _, p := range gone {
				if err := s.projectSystemEvent(ctx, m.Client(), "project_destroy", p, ""); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	})
	s.Client.User.Use(func(next ent.Mutator) ent.Mutator {
		return hook.UserFunc(func(ctx context.Context, m *ent.UserMutation) (ent.Value, error) {
			ctx = withMutationTx(ctx, m.Tx)
			var gone []*ent.User
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				ids, err := m.IDs(ctx)
				if err != nil {
					return nil, err
				}
				if gone, err = m.Client().User.Query().Where(user.IDIn(ids...)).All(ctx); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			if u, ok := v.(*ent.User); ok && m.Op().Is(ent.OpCreate) {
				return v, s.systemEvent(ctx, m.Client(), userEvent("user_create", u))
			}
			for _, u := range gone {
				if err := s.systemEvent(ctx, m.Client(), userEvent("user_destroy", u)); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	})
	s.Client.Namespace.Use(func(next ent.Mutator) ent.Mutator {
		return hook.NamespaceFunc(func(ctx context.Context, m *ent.NamespaceMutation) (ent.Value, error) {
			ctx = withMutationTx(ctx, m.Tx)
			var gone []*ent.Namespace
			if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				ids, err := m.IDs(ctx)
				if err != nil {
					return nil, err
				}
				if gone, err = m.Client().Namespace.Query().Where(namespace.IDIn(ids...), namespace.KindEQ(namespace.KindGroup)).All(ctx); err != nil {
					return nil, err
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			if g, ok := v.(*ent.Namespace); ok && m.Op().Is(ent.OpCreate) && g.Kind == namespace.KindGroup {
				if err := s.systemEvent(ctx, m.Client(), groupEvent("group_create", g)); err != nil {
					return nil, err
				}
				return v, s.subgroupEvent(ctx, m.Client(), "subgroup_create", g)
			}
			for _, g := range gone {
				if err := s.systemEvent(ctx, m.Client(), groupEvent("group_destroy", g)); err != nil {
					return nil, err
				}
				if err := s.subgroupEvent(ctx, m.Client(), "subgroup_destroy", g); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	})
}

// withMutationTx makes ctx carry the transaction the mutation runs in, if any, so that the
// deliveries are queued in it.
func withMutationTx(ctx context.Context, txOf func() (*ent.Tx, error)) context.Context {
	if ent.TxFromContext(ctx) != nil {
		return ctx
	}
	if tx, err := txOf(); err == nil {
		return ent.NewTxContext(ctx, tx)
	}
	return ctx
}

// systemEvent queues a system event to the system hooks, if there are any.
func (s *Service) systemEvent(ctx context.Context, _ *ent.Client, payload map[string]any) error {
	return s.Trigger(ctx, Instance, SystemEvent, payload)
}

// subgroupEvent queues subgroup_create or subgroup_destroy of g, when it has a parent, to the
// group hooks of the parent and its ancestors that receive subgroup events.
func (s *Service) subgroupEvent(ctx context.Context, c *ent.Client, name string, g *ent.Namespace) error {
	if g.ParentID == nil {
		return nil
	}
	parent, err := c.Namespace.Get(ctx, *g.ParentID)
	if ent.IsNotFound(err) {
		return nil // removed with its parent
	}
	if err != nil {
		return err
	}
	payload := groupEvent(name, g)
	payload["parent_group_id"], payload["parent_name"] = parent.ID, parent.Name
	payload["parent_path"], payload["parent_full_path"] = parent.Path, parent.FullPath
	return s.Trigger(ctx, Target{Group: parent}, SubgroupEvent, payload)
}

// isoTime is the time format of system event payloads.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// projectSystemEvent queues a project event (project_create, project_destroy, project_update,
// project_rename, project_transfer; oldPath, when not empty, is old_path_with_namespace) to the
// system hooks; its owners are read only when there is a system hook to receive it.
func (s *Service) projectSystemEvent(ctx context.Context, c *ent.Client, name string, p *ent.Project, oldPath string) error {
	hooks, err := s.Receivers(ctx, Instance, SystemEvent)
	if err != nil || len(hooks) == 0 {
		return err
	}
	payload, err := s.projectEvent(ctx, c, name, p)
	if err != nil {
		return err
	}
	if oldPath != "" {
		payload["old_path_with_namespace"] = oldPath
	}
	return s.Trigger(ctx, Instance, SystemEvent, payload)
}

// projectEvent is the payload of the project system events (GitLab's ProjectBuilder): the
// owner is the project's namespace (a group: its name and no email; a user: the user), the
// owners the group's Owners and its ancestors' (a personal project: its user), each with the
// email payloads show.
func (s *Service) projectEvent(ctx context.Context, c *ent.Client, name string, p *ent.Project) (map[string]any, error) {
	ns := p.Edges.Namespace
	full, ownerName, ownerEmail := p.Path, any(nil), ""
	owners := []map[string]any{}
	if ns != nil {
		full = ns.FullPath + "/" + p.Path
		var err error
		ownerName, ownerEmail, owners, err = s.projectOwners(ctx, c, ns)
		if err != nil {
			return nil, err
		}
	}
	return map[string]any{
		"created_at": isoTime(p.CreatedAt), "updated_at": isoTime(p.UpdatedAt), "event_name": name,
		"name": p.Name, "owner_email": ownerEmail, "owner_name": ownerName, "owners": owners, "path": p.Path,
		"path_with_namespace": full, "project_id": p.ID, "project_visibility": string(p.Visibility),
	}, nil
}

// projectOwners are the owner name, owner email and owners of projects in ns.
func (s *Service) projectOwners(ctx context.Context, c *ent.Client, ns *ent.Namespace) (any, string, []map[string]any, error) {
	owners := []map[string]any{}
	if ns.Kind != namespace.KindGroup {
		if ns.OwnerID == nil {
			return ns.Name, "", owners, nil
		}
		u, err := c.User.Get(ctx, *ns.OwnerID)
		if ent.IsNotFound(err) {
			return ns.Name, "", owners, nil
		}
		if err != nil {
			return nil, "", nil, err
		}
		owners = append(owners, map[string]any{"name": u.Name, "email": webhookEmail(u)})
		return u.Name, webhookEmail(u), owners, nil
	}
	ids, err := c.Namespace.Query().Where(namespace.FullPathIn(authz.Ancestors(ns.FullPath)...),
		namespace.KindEQ(namespace.KindGroup)).IDs(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	mbs, err := c.Member.Query().Where(member.NamespaceIDIn(ids...), member.ProjectIDIsNil(),
		member.AccessLevel(50), member.State("active")).Order(ent.Asc(member.FieldID)).WithUser().All(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	seen := map[int]bool{}
	for _, mb := range mbs {
		if u := mb.Edges.User; u != nil && !seen[u.ID] {
			seen[u.ID] = true
			owners = append(owners, map[string]any{"name": u.Name, "email": webhookEmail(u)})
		}
	}
	return ns.Name, "", owners, nil
}

// userEvent is the payload of user_create and user_destroy.
func userEvent(name string, u *ent.User) map[string]any {
	return map[string]any{
		"created_at": isoTime(u.CreatedAt), "updated_at": isoTime(u.UpdatedAt), "event_name": name,
		"email": u.Email, "name": u.Name, "username": u.Username, "user_id": u.ID,
	}
}

// groupEvent is the payload of group_create and group_destroy.
func groupEvent(name string, g *ent.Namespace) map[string]any {
	return map[string]any{
		"created_at": isoTime(g.CreatedAt), "updated_at": isoTime(g.UpdatedAt), "event_name": name,
		"name": g.Name, "path": g.Path, "full_path": g.FullPath, "group_id": g.ID,
	}
}

// ProjectChanged is the project service's change hook (projects.ChangeHook): an update fires
// project_update, a new path project_rename and another namespace project_transfer, both of
// these with the old full path, to the system hooks.
func (s *Service) ProjectChanged(ctx context.Context, _ *authz.Actor, action string, before, after *ent.Project) error {
	name := map[string]string{projects.Updated: "project_update", projects.Renamed: "project_rename",
		projects.Transferred: "project_transfer"}[action]
	if name == "" {
		return nil
	}
	old := ""
	if action != projects.Updated && before.Edges.Namespace != nil {
		old = before.Edges.Namespace.FullPath + "/" + before.Path
	}
	if after.Edges.Namespace == nil {
		ns, err := db.ClientFrom(ctx, s.Client).Namespace.Get(ctx, after.NamespaceID)
		if err != nil {
			return err
		}
		after.Edges.Namespace = ns
	}
	return s.projectSystemEvent(ctx, db.ClientFrom(ctx, s.Client), name, after, old)
}

// registerRenameEvents installs the ent hooks that fire user_rename when a user's username
// changes and group_rename when a group's path changes (updates of one row, the only way
// either is renamed).
func (s *Service) registerRenameEvents() {
	s.Client.User.Use(func(next ent.Mutator) ent.Mutator {
		return hook.UserFunc(func(ctx context.Context, m *ent.UserMutation) (ent.Value, error) {
			_, renamed := m.Username()
			if !renamed || !m.Op().Is(ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			ctx = withMutationTx(ctx, m.Tx)
			old, err := m.OldUsername(ctx)
			if err != nil {
				return nil, err
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			u, ok := v.(*ent.User)
			if !ok || u.Username == old {
				return v, nil
			}
			payload := userEvent("user_rename", u)
			payload["old_username"] = old
			return v, s.systemEvent(ctx, m.Client(), payload)
		})
	})
	s.Client.Namespace.Use(func(next ent.Mutator) ent.Mutator {
		return hook.NamespaceFunc(func(ctx context.Context, m *ent.NamespaceMutation) (ent.Value, error) {
			_, renamed := m.Path()
			if !renamed || !m.Op().Is(ent.OpUpdateOne) {
				return next.Mutate(ctx, m)
			}
			ctx = withMutationTx(ctx, m.Tx)
			oldPath, err := m.OldPath(ctx)
			if err != nil {
				return nil, err
			}
			oldFull, err := m.OldFullPath(ctx)
			if err != nil {
				return nil, err
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			g, ok := v.(*ent.Namespace)
			if !ok || g.Kind != namespace.KindGroup || g.Path == oldPath {
				return v, nil
			}
			payload := groupEvent("group_rename", g)
			payload["old_path"], payload["old_full_path"] = oldPath, oldFull
			return v, s.systemEvent(ctx, m.Client(), payload)
		})
	})
}
