package todos

import (
	"context"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/ent/member"
	"anvil/ent/todo"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/epics"
)

// TargetEpic is the target type of an epic's to-dos.
const TargetEpic = "Epic"

// EpicTarget is the epic e (loaded with its group) as a to-do's target: a group's, readable as
// the epic service decides (read_epic, and read_confidential_epic for a confidential one).
// "@all" in an epic names the group's direct members, when the actor is a member of the group
// and the group allows mentions (GitLab links "@all" of a group's object to the group, and a
// group reference mentions its direct members).
func (r *Recorder) EpicTarget(e *ent.Epic) Target {
	g := e.Edges.Group
	return Target{Type: TargetEpic, ID: e.ID, GroupID: &e.GroupID,
		Readable: func(ctx context.Context, u *ent.User) (bool, error) {
			return epics.CanRead(ctx, r.policy, &authz.Actor{User: u}, g, e)
		},
		Team: func(ctx context.Context, actor *authz.Actor) ([]*ent.User, error) {
			if g.MentionsDisabled {
				return nil, nil
			}
			level, err := r.policy.GroupAccess(ctx, actor, g)
			if err != nil || level < authz.Guest {
				return nil, err
			}
			ms, err := db.ClientFrom(ctx, r.client).Member.Query().Where(member.NamespaceID(g.ID), member.State("active"),
				member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGT(now()))).
				WithUser().Order(member.ByUserID()).All(ctx)
			if err != nil {
				return nil, err
			}
			var out []*ent.User
			for _, m := range ms {
				if u := m.Edges.User; u != nil && u.State == user.StateActive {
					out = append(out, u)
				}
			}
			return out, nil
		}}
}

// EpicChanged creates and resolves the to-dos of an epic change, as GitLab's TodoService does
// for epics: the users its title and description mention who may read it get "mentioned" or
// "directly_addressed" to-dos (on an edit, only those newly mentioned); an edit of the title
// or description marks the editor's own pending to-dos on it done, and so does closing it;
// deleting it removes its to-dos.
func (r *Recorder) EpicChanged(ctx context.Context, actor *authz.Actor, ch epics.Change) error {
	c := db.ClientFrom(ctx, r.client)
	if ch.Action == "destroyed" {
		_, err := c.Todo.Delete().Where(todo.TargetType(TargetEpic), todo.TargetID(ch.Before.ID)).Exec(ctx)
		return err
	}
	if actor.IsAnonymous() || ch.After == nil {
		return nil
	}
	t := r.EpicTarget(ch.After)
	var skip []string
	if before := ch.Before; before != nil {
		skip = ParseMentions(epicText(before)).All()
		if epicText(before) != epicText(ch.After) {
			if err := r.resolve(ctx, c, actor.UserID(), t); err != nil {
				return err
			}
		}
	}
	if err := r.mentions(ctx, c, actor, t, epicText(ch.After), nil, skip); err != nil {
		return err
	}
	if ch.Before != nil && ch.Before.State == epic.StateOpened && ch.After.State == epic.StateClosed {
		return r.resolve(ctx, c, actor.UserID(), t)
	}
	return nil
}

// epicText is the mentionable text of an epic: its title and description.
func epicText(e *ent.Epic) string {
	text := e.Title
	if e.Description != nil {
		text += "\n" + *e.Description
	}
	return text
}
