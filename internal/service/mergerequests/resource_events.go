package mergerequests

import (
	"context"

	"anvil/internal/authz"
	"anvil/internal/service/resourceevents"
)

// EventIssuable is the resourceevents.Finder of merge requests: the merge request iid of
// project ref as the actor reads it.
func (s *Service) EventIssuable(ctx context.Context, actor *authz.Actor, ref, iid string) (resourceevents.Issuable, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return resourceevents.Issuable{}, err
	}
	return resourceevents.MergeRequest(mr.ID), nil
}
