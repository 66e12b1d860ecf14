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
func IssueNotes(s *notes.Service) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 2 {
			return Target{}, apperr.NotFound("Note")
		}
		n, t, err := s.Get(ctx, actor, notes.Ref{Type: notes.TypeIssue, Parent: ref.Parent, ID: ref.Keys[0]}, ref.Keys[1])
		if err != nil {
			return Target{}, err
		}
		return Target{Type: "Note", ID: n.ID, CanAward: t.Access.Comment, NotAwardable: n.System}, nil
	}
}
