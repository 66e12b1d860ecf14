package awardemoji

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// MergeRequests is the resolver of a project's merge requests (Ref: the project, the merge
// request's iid): the merge request the actor reads, awardable by those with award_emoji in its
// project. Its thumbsup and thumbsdown awards are its upvotes and downvotes (mergerequests.Load).
func MergeRequests(s *mergerequests.Service) Resolver {
	return func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error) {
		if len(ref.Keys) != 1 {
			return Target{}, apperr.NotFound("Merge Request")
		}
		mr, level, err := s.Find(ctx, actor, ref.Parent, ref.Keys[0], authz.ReadMergeRequest)
		if err != nil {
			return Target{}, err
		}
		return Target{Type: "MergeRequest", ID: mr.ID, CanAward: authz.CanProject(actor, mr.Edges.Project, level, authz.AwardEmoji)}, nil
	}
}

// MergeRequestChanged removes a destroyed merge request's awards, and those of its notes, in
// the deletion's transaction (the service is a merge request observer, listed before the
// notes domain, which deletes the notes).
func (s *Service) MergeRequestChanged(ctx context.Context, _ *authz.Actor, ch mergerequests.Change) error {
	if ch.Action != mergerequests.ActionDestroyed || ch.Before == nil {
		return nil
	}
	return RemoveWithNotes(ctx, db.ClientFrom(ctx, s.client), "MergeRequest", ch.Before.ID)
}
