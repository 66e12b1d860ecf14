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

// MergeRequestSystemNoteBy writes body as a system note of authorID (nil: no author) on mr, in
// ctx's transaction: for changes no request makes (a push resetting approvals).
func (w MergeRequestSystemNotes) MergeRequestSystemNoteBy(ctx context.Context, authorID *int, mr *ent.MergeRequest, body string) error {
	iid, pid := mr.Iid, mr.ProjectID
	t := &Target{Type: TypeMergeRequest, ID: mr.ID, IID: &iid, ProjectID: &pid, Title: mr.Title, Object: mr}
	return w.notes.AddSystem(ctx, t, authorID, body)
}
