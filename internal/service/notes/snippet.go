package notes

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/snippets"
)

// SnippetNoteable is the project snippet kind of noteable: a snippet of a project by id, read
// with the snippet service's rules (the project's snippets feature, the snippet's visibility).
// Snippets keep no notes count.
type SnippetNoteable struct{ snippets *snippets.Service }

// NewSnippetNoteable returns the snippet noteable.
func NewSnippetNoteable(sn *snippets.Service) *SnippetNoteable { return &SnippetNoteable{snippets: sn} }

// Find returns snippet ref.ID of project ref.Parent as snippets.Service.FindInProject does.
func (n *SnippetNoteable) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Target, error) {
	sn, level, err := n.snippets.FindInProject(ctx, actor, ref.Parent, ref.ID)
	if err != nil {
		return nil, err
	}
	return SnippetTarget(actor, level, sn), nil
}

// UserNotesChanged: snippets keep no count of their notes.
func (n *SnippetNoteable) UserNotesChanged(context.Context, *Target, int) error { return nil }

// SnippetTarget is the project snippet sn (its project loaded) as a noteable for actor, whose
// level in the project is level: those who read the snippet comment on it (create_note of the
// project, GitLab's ProjectSnippetPolicy), its author too; snippets have no discussion lock.
func SnippetTarget(actor *authz.Actor, level authz.Level, sn *ent.Snippet) *Target {
	proj := sn.Edges.Project
	can := func(a authz.Ability) bool { return proj != nil && authz.CanProject(actor, proj, level, a) }
	author := !actor.IsAnonymous() && sn.AuthorID != nil && *sn.AuthorID == actor.UserID()
	return &Target{
		Type: TypeSnippet, ID: sn.ID, ProjectID: sn.ProjectID, Title: sn.Title, Object: sn,
		Access: Access{
			Comment:      !actor.IsAnonymous() && (can(authz.CreateNote) || (author && proj != nil && !proj.Archived)),
			Member:       actor.IsAdmin() || level >= authz.Guest,
			ReadInternal: can(authz.ReadInternalNote),
			AdminNotes:   can(authz.AdminNote),
			BackDate:     can(authz.SetNoteCreatedAt),
		},
	}
}

// SnippetObserver removes the notes of deleted snippets in the deletion's transaction.
type SnippetObserver struct{ notes *Service }

// NewSnippetObserver returns the observer of snippet deletions.
func NewSnippetObserver(s *Service) SnippetObserver { return SnippetObserver{notes: s} }

// SnippetsDeleted removes the notes of the snippets ids.
func (o SnippetObserver) SnippetsDeleted(ctx context.Context, ids []int) error {
	for _, id := range ids {
		if err := o.notes.DeleteFor(ctx, &Target{Type: TypeSnippet, ID: id}); err != nil {
			return err
		}
	}
	return nil
}
