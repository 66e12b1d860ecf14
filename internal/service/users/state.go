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

// MinimumInactiveDays is how long a user must have been inactive to be deactivated.
const MinimumInactiveDays = 90

// transition moves a user between states for an administrator: check decides, from the user,
// the new state (or none: changed is false and nothing is written) or refuses with an error.
func (s *Service) transition(ctx context.Context, actor *authz.Actor, id int,
	check func(u *ent.User) (user.State, bool, error)) (changed bool, err error) {
	if err := authz.UserAllowed(actor, nil, authz.AdminUsers); err != nil {
		return false, err
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		u, err := c.User.Get(ctx, id)
		if ent.IsNotFound(err) {
			return apperr.NotFound("User")
		} else if err != nil {
			return err
		}
		to, ok, err := check(u)
		if err != nil || !ok {
			return err
		}
		changed = true
		return c.User.UpdateOneID(u.ID).SetState(to).Exec(ctx)
	})
	return changed, err
}

// isBlocked reports the states GitLab calls blocked.
func isBlocked(u *ent.User) bool {
	return u.State == user.StateBlocked || u.State == user.StateLdapBlocked
}

// Block blocks a user. changed is false when the user already was blocked. LDAP-blocked users,
// the caller itself and internal users cannot be blocked (403).
func (s *Service) Block(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		switch {
		case u.State == user.StateLdapBlocked:
			return "", false, apperr.Forbidden("LDAP blocked users cannot be modified by the API")
		case u.ID == actor.UserID():
			return "", false, apperr.Forbidden("The API initiating user cannot be blocked by the API")
		case u.State == user.StateBlocked:
			return "", false, nil
		case IsInternal(u):
			return "", false, apperr.ForbiddenMessage("An internal user cannot be blocked")
		}
		return user.StateBlocked, true, nil
	})
}

// Unblock makes a blocked user active. changed is false when the user was not blocked (GitLab
// answers false then). LDAP-blocked and deactivated users cannot be unblocked (403).
func (s *Service) Unblock(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		switch u.State {
		case user.StateLdapBlocked:
			return "", false, apperr.Forbidden("LDAP blocked users cannot be unblocked by the API")
		case user.StateDeactivated:
			return "", false, apperr.Forbidden("Deactivated users cannot be unblocked by the API")
		case user.StateBlocked:
			return user.StateActive, true, nil
		}
		return "", false, nil
	})
}

// Activate makes a deactivated user active; an active user stays so. Blocked users must be
// unblocked first (403); banned and pending users cannot be activated (422).
func (s *Service) Activate(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		switch {
		case isBlocked(u):
			return "", false, apperr.Forbidden("A blocked user must be unblocked to be activated")
		case u.State == user.StateActive:
			return "", false, nil
		case u.State == user.StateDeactivated:
			return user.StateActive, true, nil
		}
		return "", false, apperr.Unprocessable(`State cannot transition via "activate"`)
	})
}

// Deactivate deactivates an active user who has not been active for MinimumInactiveDays.
// changed is false when the user already was deactivated. Blocked and internal users cannot be
// deactivated (403).
func (s *Service) Deactivate(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		switch {
		case u.State == user.StateDeactivated:
			return "", false, nil
		case isBlocked(u):
			return "", false, apperr.Forbidden("A blocked user cannot be deactivated by the API")
		case IsInternal(u):
			return "", false, apperr.Forbidden("An internal user cannot be deactivated by the API")
		case u.State != user.StateActive || recentlyActive(u):
			return "", false, apperr.Forbidden("The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated")
		}
		return user.StateDeactivated, true, nil
	})
}

// recentlyActive reports activity within MinimumInactiveDays.
func recentlyActive(u *ent.User) bool {
	return u.LastActivityOn != nil && u.LastActivityOn.After(time.Now().AddDate(0, 0, -MinimumInactiveDays))
}

// Ban bans an active user; other states answer 403 "You cannot ban <state> users.".
func (s *Service) Ban(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		if u.State != user.StateActive {
			return "", false, apperr.ForbiddenMessage("You cannot ban " + string(u.State) + " users.")
		}
		return user.StateBanned, true, nil
	})
}

// Unban makes a banned user active; other states answer 403 "You cannot unban <state> users.".
func (s *Service) Unban(ctx context.Context, actor *authz.Actor, id int) (changed bool, err error) {
	return s.transition(ctx, actor, id, func(u *ent.User) (user.State, bool, error) {
		if u.State != user.StateBanned {
			return "", false, apperr.ForbiddenMessage("You cannot unban " + string(u.State) + " users.")
		}
		return user.StateActive, true, nil
	})
}
