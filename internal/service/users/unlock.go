package users

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
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

// FirstAdmin returns the administrator with the lowest id (root on a new instance), the actor
// of administrative commands run on the server's host.
func (s *Service) FirstAdmin(ctx context.Context) (*ent.User, error) {
	u, err := db.ClientFrom(ctx, s.client).User.Query().
		Where(user.Admin(true), user.StateEQ(user.StateActive)).Order(ent.Asc(user.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Administrator")
	}
	return u, err
}
