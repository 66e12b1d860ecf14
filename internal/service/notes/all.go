package notes

import (
	"context"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// All returns every note of the noteable ref names that the actor may read, oldest first, with
// the target: GraphQL's notes and discussions connections, paged in memory as Discussions
// pages (a noteable's notes are few).
func (s *Service) All(ctx context.Context, actor *authz.Actor, ref Ref) ([]*ent.Note, *Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	rows, err := withAuthors(db.ClientFrom(ctx, s.client).Note.Query().Where(readable(t)...)).
		Order(ent.Asc(note.FieldCreatedAt), ent.Asc(note.FieldID)).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	rows, err = s.visibleNotes(ctx, actor, t, rows)
	return rows, t, err
}

// Group gathers notes (in order) into discussions, in the order of their first notes.
func Group(rows []*ent.Note) []*Discussion { return group(rows) }
