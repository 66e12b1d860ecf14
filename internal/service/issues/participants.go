package issues

import (
	"context"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Participants returns the users taking part in the issue iid of project ref
// (GET .../issues/:issue_iid/participants): its author, its assignees, then the authors of its
// comments in the order they first wrote; internal comments count only for an actor who may
// read them.
func (s *Service) Participants(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.User, error) {
	is, level, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	var ids []int
	add := func(id int) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if is.AuthorID != nil {
		add(*is.AuthorID)
	}
	for _, a := range is.Edges.AssigneeLinks {
		add(a.UserID)
	}
	c := db.ClientFrom(ctx, s.client)
	q := c.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeIssue), note.NoteableID(is.ID),
		note.System(false), note.AuthorIDNotNil())
	if !authz.CanProject(actor, is.Edges.Project, level, authz.ReadInternalNote) {
		q = q.Where(note.Internal(false))
	}
	notes, err := q.Order(ent.Asc(note.FieldID)).Select(note.FieldAuthorID).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		add(*n.AuthorID)
	}
	out := make([]*ent.User, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	users, err := c.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int]*ent.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	for _, id := range ids {
		if u := byID[id]; u != nil {
			out = append(out, u)
		}
	}
	return out, nil
}
