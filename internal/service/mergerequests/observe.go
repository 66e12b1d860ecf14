package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
)

// NotifyUpdated hands a write another domain made to a merge request in ctx's transaction
// (time tracking's estimate and spent time, approvals) to the observers as "updated": before is
// the merge request as that domain found it (loaded with Load); it is read again for After.
func (s *Service) NotifyUpdated(ctx context.Context, actor *authz.Actor, before *ent.MergeRequest) error {
	after, err := s.reload(ctx, before.ID)
	if err != nil {
		return err
	}
	return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionUpdated, Before: before, After: after})
}
