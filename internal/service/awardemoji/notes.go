package awardemoji

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/notes"
)

// IssueNotes is the resolver of the notes on a project's issues (Ref: the project, the issue's
// iid, the note's id): a note the actor reads (internal notes for those who read them), which
// those who may comment on the issue may award; system notes take no awards, as in GitLab.
func IssueNotes(s *notes.Service) Resolver { return noteResolver(s, notes.TypeIssue) }

// MergeRequestNotes is the resolver of the notes on a project's merge requests (Ref: the
// project, the merge request's iid, the note's id), with IssueNotes' rules.
func MergeRequestNotes(s *notes.Service) Resolver { return noteResolver(s, notes.TypeMergeRequest) }

// noteResolver resolves the notes of one noteable type under a project.
func noteResolver(s *notes.Service, noteableType string) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 2 {
			return Target{}, apperr.NotFound("Note")
		}
		n, t, err := s.Get(ctx, actor, notes.Ref{Type: noteableType, Parent: ref.Parent, ID: ref.Keys[0]}, ref.Keys[1])
		if err != nil {
			return Target{}, err
		}
		return Target{Type: "Note", ID: n.ID, CanAward: t.Access.Comment, NotAwardable: n.System}, nil
	}
}
