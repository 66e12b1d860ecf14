package webhooks

import (
	"context"

	"anvil/ent"
	"anvil/ent/hook"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
)

// accessNames are GitLab's names of access levels in member payloads.
var accessNames = map[int]string{5: "Minimal Access", 10: "Guest", 15: "Planner", 20: "Reporter",
	30: "Developer", 40: "Maintainer", 50: "Owner"}

// registerMemberEvents installs the ent hook that fires member events: a group membership
// added, changed or removed reaches the group's (and its ancestors') hooks subscribed to member
// events and the system hooks (user_add_to_group, user_update_for_group,
// user_remove_from_group); a project membership the system hooks (user_add_to_team,
// user_update_for_team, user_remove_from_team).
func (s *Service) registerMemberEvents() {
	s.Client.Member.Use(func(next ent.Mutator) ent.Mutator {
		return hook.MemberFunc(func(ctx context.Context, m *ent.MemberMutation) (ent.Value, error) {
			ctx = withMutationTx(ctx, m.Tx)
			var ids []int
			var gone []*ent.Member
			if !m.Op().Is(ent.OpCreate) {
				var err error
				if ids, err = m.IDs(ctx); err != nil {
					return nil, err
				}
				if m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
					if gone, err = m.Client().Member.Query().Where(member.IDIn(ids...)).All(ctx); err != nil {
						return nil, err
					}
				}
			}
			v, err := next.Mutate(ctx, m)
			if err != nil {
				return v, err
			}
			c := m.Client()
			switch {
			case m.Op().Is(ent.OpCreate):
				if mb, ok := v.(*ent.Member); ok {
					return v, s.memberEvent(ctx, c, "add", mb)
				}
			case m.Op().Is(ent.OpUpdate | ent.OpUpdateOne):
				if _, changed := m.AccessLevel(); !changed {
					if _, exp := m.ExpiresAt(); !exp {
						return v, nil
					}
				}
				rows, err := c.Member.Query().Where(member.IDIn(ids...)).All(ctx)
				if err != nil {
					return nil, err
				}
				for _, mb := range rows {
					if err := s.memberEvent(ctx, c, "update", mb); err != nil {
						return nil, err
					}
				}
			default:
				for _, mb := range gone {
					if err := s.memberEvent(ctx, c, "remove", mb); err != nil {
						return nil, err
					}
				}
			}
			return v, nil
		})
	})
}

// memberEvent queues one member event (verb add, update or remove) of mb.
func (s *Service) memberEvent(ctx context.Context, c *ent.Client, verb string, mb *ent.Member) error {
	u, err := c.User.Get(ctx, mb.UserID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	base := map[string]any{"created_at": isoTime(mb.CreatedAt), "updated_at": isoTime(mb.UpdatedAt),
		"user_email": webhookEmail(u), "user_name": u.Name, "user_username": u.Username, "user_id": u.ID}
	if mb.ProjectID != nil {
		p, err := c.Project.Query().Where(project.ID(*mb.ProjectID)).WithNamespace().Only(ctx)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		base["event_name"] = map[string]string{"add": "user_add_to_team", "update": "user_update_for_team", "remove": "user_remove_from_team"}[verb]
		base["access_level"] = accessNames[mb.AccessLevel]
		base["project_id"], base["project_name"], base["project_path"] = p.ID, p.Name, p.Path
		base["project_path_with_namespace"] = p.Edges.Namespace.FullPath + "/" + p.Path
		base["project_visibility"] = string(p.Visibility)
		return s.Trigger(ctx, Instance, SystemEvent, base)
	}
	if mb.NamespaceID == nil {
		return nil
	}
	g, err := c.Namespace.Query().Where(namespace.ID(*mb.NamespaceID), namespace.KindEQ(namespace.KindGroup)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	base["event_name"] = map[string]string{"add": "user_add_to_group", "update": "user_update_for_group", "remove": "user_remove_from_group"}[verb]
	base["group_access"] = accessNames[mb.AccessLevel]
	base["group_id"], base["group_name"], base["group_path"] = g.ID, g.Name, g.Path
	// System hooks and group hooks receive the same payload (GitLab builds both with its
	// GroupMemberBuilder), expires_at and group_plan included.
	var expires any
	if mb.ExpiresAt != nil {
		expires = isoTime(*mb.ExpiresAt)
	}
	base["expires_at"], base["group_plan"] = expires, nil
	if err := s.Trigger(ctx, Instance, SystemEvent, base); err != nil {
		return err
	}
	return s.Trigger(ctx, Target{Group: g}, MemberEvent, base)
}
