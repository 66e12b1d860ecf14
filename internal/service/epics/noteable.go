package epics

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/notes"
)

// Noteable is the epic kind of noteable for the notes domain (registered as notes.TypeEpic).
type Noteable struct{ s *Service }

// Noteable returns the epic noteable.
func (s *Service) Noteable() *Noteable { return &Noteable{s: s} }

// Find returns the epic of group ref.Parent whose global id is ref.ID (GitLab's notes API
// addresses epics by id, not iid), as the actor may see it (404 otherwise), with GitLab's
// EpicPolicy note rules: readers who are signed in comment; Planners and up read and write
// internal notes; Maintainers and up change others' notes; group Owners back-date.
func (n *Noteable) Find(ctx context.Context, actor *authz.Actor, ref notes.Ref) (*notes.Target, error) {
	g, err := n.s.group(ctx, actor, ref.Parent, authz.ReadEpic)
	if err != nil {
		return nil, err
	}
	id, err := strconv.Atoi(ref.ID)
	if err != nil {
		return nil, apperr.Invalid("epic_id")
	}
	e, err := db.ClientFrom(ctx, n.s.client).Epic.Query().Where(epic.ID(id), epic.GroupID(g.ID)).Only(ctx)
	if ent.IsNotFound(err) || err == nil && e.Confidential && !g.Can(actor, authz.ReadConfidentialEpic) {
		return nil, apperr.NotFound("Epic")
	}
	if err != nil {
		return nil, err
	}
	e.Edges.Group = g.Namespace
	iid, gid := e.Iid, e.GroupID
	return &notes.Target{
		Type: notes.TypeEpic, ID: e.ID, IID: &iid, GroupID: &gid, Title: e.Title, Object: e,
		Access: notes.Access{
			Comment:      !actor.IsAnonymous(),
			Member:       actor.IsAdmin() || g.Level >= authz.Guest,
			ReadInternal: actor.IsAdmin() || g.Level >= authz.Planner,
			AdminNotes:   actor.IsAdmin() || g.Level >= authz.Maintainer,
			BackDate:     g.Can(actor, authz.AdminGroup),
		},
	}, nil
}

// UserNotesChanged keeps no count for epics.
func (n *Noteable) UserNotesChanged(context.Context, *notes.Target, int) error { return nil }

// deleteNotes removes the notes of the epic id and of its descendants, which go with it.
func (s *Service) deleteNotes(ctx context.Context, c *ent.Client, id int) error {
	level := []int{id}
	for depth := 0; len(level) > 0 && depth <= MaxDepth; depth++ {
		for _, eid := range level {
			if err := s.notes.DeleteFor(ctx, &notes.Target{Type: notes.TypeEpic, ID: eid}); err != nil {
				return err
			}
		}
		next, err := c.Epic.Query().Where(epic.ParentIDIn(level...)).IDs(ctx)
		if err != nil {
			return err
		}
		level = next
	}
	return nil
}
