package awardemoji

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/issues"
)

// Issues is the resolver of a project's issues (Ref: the project, the issue's iid): the issue
// the actor reads, awardable by those with award_emoji in its project.
func Issues(s *issues.Service) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 1 {
			return Target{}, apperr.NotFound("Issue")
		}
		is, level, err := s.Find(ctx, actor, ref.Parent, ref.Keys[0])
		if err != nil {
			return Target{}, err
		}
		return Target{Type: "Issue", ID: is.ID, CanAward: authz.CanProject(actor, is.Edges.Project, level, authz.AwardEmoji)}, nil
	}
}

// IssueChanged removes a destroyed issue's awards, and those of its notes, in the deletion's
// transaction (the service is an issue observer, listed before the notes domain, which deletes
// the notes).
func (s *Service) IssueChanged(ctx context.Context, _ *authz.Actor, ch issues.Change) error {
	if ch.Action != "destroyed" || ch.Before == nil {
		return nil
	}
	return RemoveWithNotes(ctx, db.ClientFrom(ctx, s.client), "Issue", ch.Before.ID)
}
