package tokens

import (
	"context"
	"slices"
	"time"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/apperr"
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
	t, err := s.client.PersonalAccessToken.Query().
		Where(personalaccesstoken.TokenDigest(Digest(secret))).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Unauthorized()
	}
	if err != nil {
		return nil, err
	}
	if IsExpired(t, time.Now()) {
		return nil, apperr.InvalidToken(expiredDescription)
	}
	if t.Revoked {
		return nil, apperr.InvalidToken(revokedDescription)
	}
	s.touch(ctx, t, ip)
	return t, nil
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
