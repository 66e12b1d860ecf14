package awardemoji

import (
	"context"

	"anvil/internal/apperr"
	"anvil/internal/authz"
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
