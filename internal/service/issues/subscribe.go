package issues

import (
	"context"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/subscriptions"
)

// Subscribed is GitLab's subscribed? for an issue: the actor's explicit choice, else whether
// the actor takes part (its author, an assignee, a commenter).
func (s *Service) Subscribed(ctx context.Context, actor *authz.Actor, is *ent.Issue) (bool, error) {
	if actor.IsAnonymous() {
		return false, nil
	}
	c := db.ClientFrom(ctx, s.client)
	choice, err := subscriptions.Explicit(ctx, c, subscriptions.Issue, is.ID, actor.UserID())
	if err != nil || choice != nil {
		return choice != nil && *choice, err
	}
	uid := actor.UserID()
	if is.AuthorID != nil && *is.AuthorID == uid {
		return true, nil
	}
	for _, a := range is.Edges.AssigneeLinks {
		if a.UserID == uid {
			return true, nil
		}
	}
	return c.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeIssue), note.NoteableID(is.ID),
		note.System(false), note.AuthorID(uid)).Exist(ctx)
}

// Subscribe records the actor's choice to follow (or not) the issue iid of project ref;
// changed is false when the actor's state was already that (GitLab's 304).
func (s *Service) Subscribe(ctx context.Context, actor *authz.Actor, ref, iid string, subscribe bool) (is *ent.Issue, changed bool, err error) {
	is, _, err = s.Find(ctx, actor, ref, iid)
	if err != nil {
		return nil, false, err
	}
	now, err := s.Subscribed(ctx, actor, is)
	if err != nil || now == subscribe {
		return is, false, err
	}
	pid := is.ProjectID
	err = subscriptions.Set(ctx, db.ClientFrom(ctx, s.client), subscriptions.Issue, is.ID, &pid, actor.UserID(), subscribe)
	return is, err == nil, err
}
