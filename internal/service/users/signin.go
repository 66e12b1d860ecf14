package users

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/db"
)

// GitLab's lock defaults (Devise's maximum_attempts and unlock_in), used while the settings
// max_login_attempts and failed_login_attempts_unlock_period_in_minutes are null.
const (
	defaultMaxLoginAttempts    = 10
	defaultUnlockPeriodMinutes = 10
)

// SignInWithPassword is the password sign-in of git and container registry clients (HTTP
// Basic with a username or email and the account password; Anvil has no web sign-in). It
// returns the account when the password is right and the account may use git (AccessError
// with ViaGitClient); otherwise an error: KindUnauthorized for wrong credentials, an account
// that cannot sign in, passwords for git switched off (password_authentication_enabled_for_git)
// or two-factor authentication (which requires a token); KindForbidden for a deactivated
// account.
//
// As GitLab's lockable accounts do, each wrong password counts on the account
// (failed_attempts) and max_login_attempts of them lock it for
// failed_login_attempts_unlock_period_in_minutes; a right password clears the count, and a
// lock that ran out is cleared on the next attempt. Every attempt for a login that names no
// account, or an account that cannot sign in, compares the password with a dummy hash, so
// that it costs the same as a wrong password for a real account and its timing does not tell
// whether the login exists.
func (s *Service) SignInWithPassword(ctx context.Context, login, password, baseURL string) (*ent.User, error) {
	if login == "" || password == "" {
		return nil, apperr.Unauthorized()
	}
	enabled := true
	if err := s.settings.Get(ctx, "password_authentication_enabled_for_git", &enabled); err != nil {
		return nil, err
	}
	if !enabled {
		return nil, apperr.Unauthorized()
	}
	u, err := db.ClientFrom(ctx, s.client).User.Query().
		Where(user.Or(user.UsernameEqualFold(login), user.EmailEqualFold(login))).First(ctx)
	if ent.IsNotFound(err) {
		s.hasher.Compare(s.dummy.get(s.hasher), password)
		return nil, apperr.Unauthorized()
	} else if err != nil {
		return nil, err
	}
	now := time.Now()
	if !canSignIn(u, now) || u.PasswordHash == "" {
		// GitLab does not check the password of an account that cannot sign in, nor count it.
		s.hasher.Compare(s.dummy.get(s.hasher), password)
		return nil, apperr.Unauthorized()
	}
	if !s.hasher.Compare(u.PasswordHash, password) {
		if err := s.recordFailedSignIn(ctx, u.ID, now); err != nil {
			return nil, err
		}
		return nil, apperr.Unauthorized()
	}
	if u.FailedAttempts > 0 || u.LockedUntil != nil {
		if err := s.clearLock(ctx, u.ID); err != nil {
			return nil, err
		}
	}
	if u.TwoFactorEnabled {
		return nil, apperr.Unauthorized()
	}
	if err := AccessError(u, ViaGitClient, baseURL, now); err != nil {
		return nil, err
	}
	return u, nil
}

// recordFailedSignIn counts a wrong password on account id and locks it once the count
// reaches the limit. A lock that ran out is cleared first, so the count starts again. The
// count is one UPDATE ... SET failed_attempts = failed_attempts + 1, so that concurrent
// failures all count.
func (s *Service) recordFailedSignIn(ctx context.Context, id int, now time.Time) error {
	limit, period := s.lockPolicy(ctx)
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.User.Update().Where(user.ID(id), user.LockedUntilLTE(now)).
			SetFailedAttempts(0).ClearLockedUntil().Exec(ctx); err != nil {
			return err
		}
		if err := c.User.UpdateOneID(id).AddFailedAttempts(1).Exec(ctx); err != nil {
			return err
		}
		u, err := c.User.Get(ctx, id)
		if err != nil || u.FailedAttempts < limit || u.LockedUntil != nil {
			return err
		}
		return c.User.UpdateOneID(id).SetLockedUntil(now.Add(period)).Exec(ctx)
	})
}

// clearLock resets the failure count and lifts the lock (Devise's unlock_access!).
func (s *Service) clearLock(ctx context.Context, id int) error {
	return db.ClientFrom(ctx, s.client).User.UpdateOneID(id).SetFailedAttempts(0).ClearLockedUntil().Exec(ctx)
}

// lockPolicy returns the number of failures that locks an account and how long the lock
// lasts, from the instance settings (null: GitLab's 10 and 10 minutes).
func (s *Service) lockPolicy(ctx context.Context) (int, time.Duration) {
	var attempts, minutes *int
	_ = s.settings.Get(ctx, "max_login_attempts", &attempts)
	_ = s.settings.Get(ctx, "failed_login_attempts_unlock_period_in_minutes", &minutes)
	limit, period := defaultMaxLoginAttempts, defaultUnlockPeriodMinutes
	if attempts != nil && *attempts > 0 {
		limit = *attempts
	}
	if minutes != nil && *minutes > 0 {
		period = *minutes
	}
	return limit, time.Duration(period) * time.Minute
}
