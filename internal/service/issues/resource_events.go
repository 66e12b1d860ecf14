package issues

import (
	"context"

	"anvil/internal/authz"
	"anvil/internal/service/resourceevents"
)

// EventIssuable is the resourceevents.Finder of issues: the issue iid of project ref as the
// actor reads it.
func (s *Service) EventIssuable(ctx context.Context, actor *authz.Actor, ref, iid string) (resourceevents.Issuable, error) {
	is, _, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return resourceevents.Issuable{}, err
	}
	return resourceevents.Issue(is.ID), nil
}
