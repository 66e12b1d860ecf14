package notes

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
)

// MergeRequestSystemNotes writes system notes on merge requests for the domains that build on
// the merge request package and cannot call the notes domain themselves (approvals).
type MergeRequestSystemNotes struct{ notes *Service }

// NewMergeRequestSystemNotes returns the merge request system note writer.
func NewMergeRequestSystemNotes(s *Service) MergeRequestSystemNotes {
	return MergeRequestSystemNotes{notes: s}
}

// MergeRequestSystemNote writes body as a system note of the actor on mr, in ctx's transaction.
func (w MergeRequestSystemNotes) MergeRequestSystemNote(ctx context.Context, actor *authz.Actor, level authz.Level, mr *ent.MergeRequest, body string) error {
	var author *int
	if !actor.IsAnonymous() {
		id := actor.UserID()
		author = &id
	}
	return w.notes.AddSystem(ctx, MergeRequestTarget(actor, level, mr), author, body)
}
