package users

import (
	"context"
	"time"

	"anvil/internal/authz"
)

// Unlock lifts the lock of the account ref (id or username) for an administrator and clears
// its failed sign-in count, as GitLab's administrators do from the Admin area or the command
// line (GitLab's REST API has no unlock endpoint; Anvil offers `anvil user unlock`). changed
// is false when the account was not locked.
func (s *Service) Unlock(ctx context.Context, actor *authz.Actor, ref string) (changed bool, err error) {
	if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
		return false, err
	}
	u, err := s.FindByRef(ctx, ref)
	if err != nil {
		return false, err
	}
	changed = AccessLocked(u, time.Now())
	if u.FailedAttempts == 0 && u.LockedUntil == nil {
		return false, nil
	}
	return changed, s.clearLock(ctx, u.ID)
}
