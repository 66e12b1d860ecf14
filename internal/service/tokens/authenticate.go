package tokens

import (
	"context"
	"slices"
	"time"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/predicate"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/db"
)

// The invalid_token descriptions GitLab's OAuth guard gives for unusable tokens.
const (
	expiredDescription = "Token is expired. You can either do re-authorization or token refresh."
	revokedDescription = "Token was revoked. You have to re-authorize from the user."
)

// maxLastUsedIPs is how many distinct client addresses a token remembers.
const maxLastUsedIPs = 5

// Authenticate finds the token for a secret, with its user, and records its use from ip.
// Unknown secrets answer 401; expired and revoked ones answer GitLab's invalid_token errors
// (expiry is checked first, as GitLab does).
func (s *Service) Authenticate(ctx context.Context, secret, ip string) (*ent.PersonalAccessToken, error) {
	if secret == "" || len(secret) > 512 {
		return nil, apperr.Unauthorized()
	}
	t, u, err := s.tokenWithUser(ctx, Digest(secret))
	if ent.IsNotFound(err) || (err == nil && t.UserID != u.ID) {
		return nil, apperr.Unauthorized()
	}
	if err != nil {
		return nil, err
	}
	t.Edges.User = u
	if IsExpired(t, time.Now()) {
		return nil, apperr.InvalidToken(expiredDescription)
	}
	if t.Revoked {
		return nil, apperr.InvalidToken(revokedDescription)
	}
	s.touch(ctx, t, ip)
	s.recordActivity(ctx, t)
	return t, nil
}

// recordActivity sets the user's last_activity_on to today on their first authenticated request
// of the day, as GitLab's activity service does (not while an administrator impersonates them).
// A failed write is not worth failing the request for.
func (s *Service) recordActivity(ctx context.Context, t *ent.PersonalAccessToken) {
	u := t.Edges.User
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if t.Impersonation || u.State != user.StateActive || (u.LastActivityOn != nil && !u.LastActivityOn.Before(today)) {
		return
	}
	n, err := s.client.User.Update().
		Where(user.ID(u.ID), user.Or(user.LastActivityOnIsNil(), user.LastActivityOnLT(today))).
		SetLastActivityOn(today).SetUpdatedAt(u.UpdatedAt). // activity is no change of the account
		Save(ctx)
	if err == nil && n > 0 {
		u.LastActivityOn = &today
	}
}

// touch records last use at most once a minute (unless a new address shows up), so reads do
// not turn into a write per request. A failed write is not worth failing the request for.
func (s *Service) touch(ctx context.Context, t *ent.PersonalAccessToken, ip string) {
	now := time.Now().UTC()
	known := ip == "" || slices.Contains(t.LastUsedIps, ip)
	if known && t.LastUsedAt != nil && now.Sub(*t.LastUsedAt) < time.Minute {
		return
	}
	ips := t.LastUsedIps
	if !known {
		ips = append(slices.Clone(ips), ip)
		if len(ips) > maxLastUsedIPs {
			ips = ips[len(ips)-maxLastUsedIPs:]
		}
	}
	at := now.Truncate(time.Millisecond)
	if err := s.client.PersonalAccessToken.UpdateOneID(t.ID).SetLastUsedAt(at).SetLastUsedIps(ips).Exec(ctx); err == nil {
		t.LastUsedAt, t.LastUsedIps = &at, ips
	}
}

// tokenWithUser reads the token with a digest and its user. Across the network (PostgreSQL) the
// two are read side by side, the user through the token's digest, so authentication costs one
// round trip instead of two; in process (SQLite) ent's eager loading by primary key is cheaper.
func (s *Service) tokenWithUser(ctx context.Context, digest string) (*ent.PersonalAccessToken, *ent.User, error) {
	byDigest := personalaccesstoken.TokenDigest(digest)
	if !db.Networked(s.client) {
		t, err := s.client.PersonalAccessToken.Query().Where(byDigest).WithUser().Only(ctx)
		if err != nil {
			return nil, nil, err
		}
		return t, t.Edges.User, nil
	}
	var t *ent.PersonalAccessToken
	var u *ent.User
	err := db.Concurrently(ctx, s.client,
		func(ctx context.Context) (err error) {
			t, err = s.client.PersonalAccessToken.Query().Where(byDigest).Only(ctx)
			return err
		},
		func(ctx context.Context) (err error) {
			u, err = s.client.User.Query().Where(predicate.User(db.In(user.FieldID, personalaccesstoken.Table,
				personalaccesstoken.FieldUserID, byDigest))).Only(ctx)
			return err
		})
	return t, u, err
}
