package notes

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/events"
)

// ListParams are the notes list's filters.
type ListParams struct {
	// ActivityFilter is activity_filter: all_notes (default), only_comments (user notes) or
	// only_activity (system notes).
	ActivityFilter string
}

// ActivityFilters are activity_filter's values.
var ActivityFilters = []string{"all_notes", "only_comments", "only_activity"}

// Order is the notes list's order_by (created_at, updated_at) and sort (desc by default).
type Order struct {
	By   string
	Sort string
}

// of selects the target's notes.
func of(t *Target) predicate.Note {
	if t.CommitID != nil {
		return note.And(note.NoteableTypeEQ(note.NoteableType(t.Type)), note.CommitID(*t.CommitID), note.ProjectIDEQ(*t.ProjectID))
	}
	return note.And(note.NoteableTypeEQ(note.NoteableType(t.Type)), note.NoteableID(t.ID))
}

// readable selects the target's notes the actor may read: internal notes need read_internal_note.
func readable(t *Target) []predicate.Note {
	out := []predicate.Note{of(t)}
	if !t.Access.ReadInternal {
		out = append(out, note.Internal(false))
	}
	return out
}

// withAuthors loads the users a note is presented with.
func withAuthors(q *ent.NoteQuery) *ent.NoteQuery { return q.WithAuthor().WithResolvedBy() }

// List lists the notes of the noteable ref names, as GET .../notes: newest first by default.
func (s *Service) List(ctx context.Context, actor *authz.Actor, ref Ref, p ListParams, o Order, page pagination.Offset) (pagination.Result[*ent.Note], *Target, error) {
	res := pagination.Result[*ent.Note]{Page: page}
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return res, nil, err
	}
	q := db.ClientFrom(ctx, s.client).Note.Query().Where(readable(t)...)
	if hide, err := s.notHidden(ctx, actor, t); err != nil {
		return res, nil, err
	} else if hide != nil {
		q.Where(hide)
	}
	switch p.ActivityFilter {
	case "only_comments":
		q.Where(note.System(false))
	case "only_activity":
		q.Where(note.System(true))
	}
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, nil, err
	}
	col := note.FieldCreatedAt
	if o.By == "updated_at" {
		col = note.FieldUpdatedAt
	}
	if o.Sort == "asc" {
		q.Order(ent.Asc(col), ent.Asc(note.FieldID))
	} else {
		q.Order(ent.Desc(col), ent.Desc(note.FieldID))
	}
	res.Items, err = withAuthors(q).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, t, err
}

// Get returns one note of the noteable: 404 Not found for an id it does not have, 404 Note
// Not Found for a note the actor may not read.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref Ref, noteID string) (*ent.Note, *Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.note(ctx, actor, t, noteID)
	return n, t, err
}

// note reads one note of t the actor may read: not an internal note without
// read_internal_note, nor a cross-reference note naming what the actor may not read.
func (s *Service) note(ctx context.Context, actor *authz.Actor, t *Target, noteID string) (*ent.Note, error) {
	id, err := strconv.Atoi(noteID)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	n, err := withAuthors(db.ClientFrom(ctx, s.client).Note.Query().Where(of(t), note.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	if n.Internal && !t.Access.ReadInternal {
		return nil, apperr.NotFound("Note")
	}
	if hidden, err := s.hiddenCrossReferences(ctx, actor, t, []*ent.Note{n}); err != nil {
		return nil, err
	} else if hidden[n.ID] {
		return nil, apperr.NotFound("Note")
	}
	return n, nil
}

// Discussion is a thread of notes, or one note that is not part of a thread (Individual).
type Discussion struct {
	ID         string
	Individual bool
	Notes      []*ent.Note
}

// Discussions lists the noteable's discussions in the order they began, with their notes
// oldest first; a page counts discussions. As GitLab does, the notes are read whole and
// grouped (a noteable's notes are few).
func (s *Service) Discussions(ctx context.Context, actor *authz.Actor, ref Ref, page pagination.Offset) (pagination.Result[*Discussion], *Target, error) {
	res := pagination.Result[*Discussion]{Page: page}
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return res, nil, err
	}
	rows, err := withAuthors(db.ClientFrom(ctx, s.client).Note.Query().Where(readable(t)...)).
		Order(ent.Asc(note.FieldCreatedAt), ent.Asc(note.FieldID)).All(ctx)
	if err != nil {
		return res, nil, err
	}
	if rows, err = s.visibleNotes(ctx, actor, t, rows); err != nil {
		return res, nil, err
	}
	all := group(rows)
	res.Total = len(all)
	from := min(page.Skip(), len(all))
	to := min(from+page.Limit(), len(all))
	res.Items = all[from:to]
	return res, t, nil
}

// Discussion returns one discussion of the noteable: 404 Discussion Not Found when the actor
// reads none of its notes.
func (s *Service) Discussion(ctx context.Context, actor *authz.Actor, ref Ref, discussionID string) (*Discussion, *Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.discussion(ctx, actor, t, discussionID)
	return d, t, err
}

// discussion reads the notes of one discussion of t the actor may read.
func (s *Service) discussion(ctx context.Context, actor *authz.Actor, t *Target, discussionID string) (*Discussion, error) {
	rows, err := withAuthors(db.ClientFrom(ctx, s.client).Note.Query().
		Where(append(readable(t), note.DiscussionID(discussionID))...)).
		Order(ent.Asc(note.FieldCreatedAt), ent.Asc(note.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	if rows, err = s.visibleNotes(ctx, actor, t, rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apperr.NotFound("Discussion")
	}
	return group(rows)[0], nil
}

// group gathers notes (in order) into discussions, in the order of their first notes.
func group(rows []*ent.Note) []*Discussion {
	var out []*Discussion
	byID := map[string]*Discussion{}
	for _, n := range rows {
		d := byID[n.DiscussionID]
		if d == nil {
			d = &Discussion{ID: n.DiscussionID, Individual: n.Type == nil}
			byID[n.DiscussionID] = d
			out = append(out, d)
		}
		d.Notes = append(d.Notes, n)
	}
	return out
}

// ForEvents reads the notes the "commented on" events among list are about, by note id.
func (s *Service) ForEvents(ctx context.Context, list []*ent.Event) (map[int]*ent.Note, error) {
	var ids []int
	for _, e := range list {
		if e.TargetType != nil && *e.TargetType == events.TargetNote && e.TargetID != nil {
			ids = append(ids, *e.TargetID)
		}
	}
	out := map[int]*ent.Note{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := withAuthors(db.ClientFrom(ctx, s.client).Note.Query().Where(note.IDIn(ids...))).All(ctx)
	for _, n := range rows {
		out[n.ID] = n
	}
	return out, err
}
