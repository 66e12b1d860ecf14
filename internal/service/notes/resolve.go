package notes

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// mayResolve refuses resolving a thread the actor may not: resolve_note is the thread's
// author's, or Access.ResolveThreads' (merge requests: those who may update it).
func mayResolve(actor *authz.Actor, t *Target, first *ent.Note) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	own := first.AuthorID != nil && *first.AuthorID == actor.UserID() && t.Access.Comment
	if !(own || t.Access.ResolveThreads) || (t.Access.Locked && !t.Access.Member) {
		return apperr.Forbidden("")
	}
	return nil
}

// ResolveNote resolves or unresolves one note (PUT .../discussions/:id/notes/:note_id with
// resolved): 400 "Note is not resolvable" on a noteable whose threads are not (issues).
func (s *Service) ResolveNote(ctx context.Context, actor *authz.Actor, ref Ref, noteID string, resolved bool) (*ent.Note, *Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	row, err := s.note(ctx, actor, t, noteID)
	if err != nil {
		return nil, nil, err
	}
	if err := mayResolve(actor, t, row); err != nil {
		return nil, nil, err
	}
	if !row.Resolvable {
		return nil, nil, apperr.BadRequest("Note is not resolvable")
	}
	if err := s.resolve(ctx, actor, note.ID(row.ID), resolved); err != nil {
		return nil, nil, err
	}
	out, err := withAuthors(s.client.Note.Query().Where(note.ID(row.ID))).Only(ctx)
	return out, t, err
}

// ResolveDiscussion resolves or unresolves every resolvable note of a thread (PUT
// .../discussions/:id with resolved; merge requests).
func (s *Service) ResolveDiscussion(ctx context.Context, actor *authz.Actor, ref Ref, discussionID string, resolved bool) (*Discussion, *Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.discussion(ctx, actor, t, discussionID)
	if err != nil {
		return nil, nil, err
	}
	if err := mayResolve(actor, t, d.Notes[0]); err != nil {
		return nil, nil, err
	}
	if !d.Notes[0].Resolvable {
		// GitLab's can_resolve? is false for a thread that is not resolvable (an individual
		// note): 403.
		return nil, nil, apperr.Forbidden("")
	}
	if err := s.resolve(ctx, actor, note.And(of(t), note.DiscussionID(d.ID)), resolved); err != nil {
		return nil, nil, err
	}
	d, err = s.discussion(ctx, actor, t, discussionID)
	return d, t, err
}

// resolve marks the resolvable notes matching where resolved by actor now, or unresolved.
func (s *Service) resolve(ctx context.Context, actor *authz.Actor, where predicate.Note, resolved bool) error {
	up := db.ClientFrom(ctx, s.client).Note.Update().Where(note.Resolvable(true), where)
	if resolved {
		up.Where(note.ResolvedAtIsNil()).SetResolvedAt(time.Now().UTC().Truncate(time.Millisecond)).SetResolvedByID(actor.UserID())
	} else {
		up.ClearResolvedAt().ClearResolvedByID()
	}
	return up.Exec(ctx)
}
