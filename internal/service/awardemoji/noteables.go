package awardemoji

import (
	"context"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/note"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/notes"
)

// Noteables is the resolver of a kind of noteable other than issues (project snippets: Ref the
// project and the snippet's id; epics: the group and the epic's iid): the object the notes
// domain finds for the actor (404 in its domain's words otherwise), awardable by those who may
// comment on it (signed in, and GitLab's create_note there). typ is the noteable type, also
// the awardable type stored.
func Noteables(s *notes.Service, typ string) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 1 {
			return Target{}, apperr.NotFound(typ)
		}
		t, err := s.Find(ctx, actor, notes.Ref{Type: typ, Parent: ref.Parent, ID: ref.Keys[0]})
		if err != nil {
			return Target{}, err
		}
		return Target{Type: typ, ID: t.ID, CanAward: t.Access.Comment}, nil
	}
}

// NotesOn is the resolver of the notes on a kind of noteable (Ref: the parent, the noteable's
// key, the note's id), as IssueNotes is for issues.
func NotesOn(s *notes.Service, typ string) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 2 {
			return Target{}, apperr.NotFound("Note")
		}
		n, t, err := s.Get(ctx, actor, notes.Ref{Type: typ, Parent: ref.Parent, ID: ref.Keys[0]}, ref.Keys[1])
		if err != nil {
			return Target{}, err
		}
		return Target{Type: "Note", ID: n.ID, CanAward: t.Access.Comment, NotAwardable: n.System}, nil
	}
}

// RemoveWithNotes deletes the awards of an awardable that is going away and those of its notes,
// in the deletion's transaction (before its notes are deleted).
func RemoveWithNotes(ctx context.Context, c *ent.Client, typ string, id int) error {
	noteIDs, err := c.Note.Query().Where(note.NoteableTypeEQ(note.NoteableType(typ)), note.NoteableID(id)).IDs(ctx)
	if err != nil {
		return err
	}
	if len(noteIDs) > 0 {
		if _, err := c.AwardEmoji.Delete().Where(awardemoji.AwardableTypeEQ(awardemoji.AwardableTypeNote),
			awardemoji.AwardableIDIn(noteIDs...)).Exec(ctx); err != nil {
			return err
		}
	}
	return RemoveAll(ctx, c, typ, id)
}

// SnippetsDeleted removes the awards of deleted snippets and of their notes (a snippet
// observer, told before the notes domain deletes the notes).
func (s *Service) SnippetsDeleted(ctx context.Context, ids []int) error {
	c := db.ClientFrom(ctx, s.client)
	for _, id := range ids {
		if err := RemoveWithNotes(ctx, c, "Snippet", id); err != nil {
			return err
		}
	}
	return nil
}
