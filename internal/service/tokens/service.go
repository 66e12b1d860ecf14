package tokens

import (
	"context"
	"slices"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/apperr"
	"anvil/internal/db"
	"anvil/internal/service/settings"
)

// Scopes lists every token scope Anvil knows, in GitLab's spelling.
var Scopes = []string{
	"api", "read_api", "read_user", "create_runner", "manage_runner", "k8s_proxy", "self_rotate",
	"read_repository", "write_repository", "read_registry", "write_registry",
	"read_virtual_registry", "write_virtual_registry", "sudo", "admin_mode", "read_service_ping",
	"ai_features", "read_observability", "write_observability",
}

// DefaultLifetime is the expiry given to tokens created without expires_at.
const DefaultLifetime = 365 * 24 * time.Hour

// Service is the token service.
type Service struct {
	client   *ent.Client
	settings *settings.Service
}

// New returns the token service.
func New(client *ent.Client, st *settings.Service) *Service {
	return &Service{client: client, settings: st}
}

// Authenticate finds the active token for a secret and its user. Unknown secrets answer 401;
// expired and revoked ones answer GitLab's invalid_token errors.
func (s *Service) Authenticate(ctx context.Context, secret string) (*ent.PersonalAccessToken, error) {
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
	if t.Revoked {
		return nil, apperr.InvalidToken("Token was revoked. You have to re-authorize from the user.")
	}
	if IsExpired(t, time.Now()) {
		return nil, apperr.InvalidToken("Token is expired. You can either do re-authorization or token refresh.")
	}
	s.touch(ctx, t)
	return t, nil
}

// touch records last use at most once a minute, so reads do not turn into writes per request.
func (s *Service) touch(ctx context.Context, t *ent.PersonalAccessToken) {
	now := time.Now().UTC()
	if t.LastUsedAt != nil && now.Sub(*t.LastUsedAt) < time.Minute {
		return
	}
	_ = s.client.PersonalAccessToken.UpdateOneID(t.ID).SetLastUsedAt(now.Truncate(time.Millisecond)).Exec(ctx)
}

// IsExpired reports whether t has expired: a token expires at the end of its expires_at date.
func IsExpired(t *ent.PersonalAccessToken, now time.Time) bool {
	return t.ExpiresAt != nil && !now.UTC().Before(t.ExpiresAt.Add(24*time.Hour))
}

// IsActive reports whether t can still be used.
func IsActive(t *ent.PersonalAccessToken) bool { return !t.Revoked && !IsExpired(t, time.Now()) }

// CreateInput holds a new token's attributes.
type CreateInput struct {
	UserID        int
	Name          string
	Description   string
	Scopes        []string
	ExpiresAt     *time.Time
	Impersonation bool
	// NoExpiry leaves the token without expiry (the initial root token).
	NoExpiry bool
	// Secret, when set, is used as the token instead of a generated one (ANVIL_INITIAL_ROOT_TOKEN).
	Secret string
}

// ValidateScopes checks scopes against the known list.
func ValidateScopes(scopes []string) error {
	if len(scopes) == 0 {
		return apperr.Missing("scopes")
	}
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return apperr.NotAllowedValue("scopes")
		}
	}
	return nil
}

// Create issues a token and returns it with its secret, which is never stored.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.PersonalAccessToken, string, error) {
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		return nil, "", apperr.FieldError("name", "can't be blank")
	}
	if len([]rune(in.Name)) > 255 {
		return nil, "", apperr.FieldError("name", "is too long (maximum is 255 characters)")
	}
	if err := ValidateScopes(in.Scopes); err != nil {
		return nil, "", err
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if in.ExpiresAt != nil {
		d := in.ExpiresAt.UTC().Truncate(24 * time.Hour)
		if d.Before(today) {
			return nil, "", apperr.Message(400, "Expiration date must be in the future")
		}
		if d.After(today.Add(400 * 24 * time.Hour)) {
			return nil, "", apperr.FieldError("expires_at", "must expire within 400 days")
		}
		in.ExpiresAt = &d
	} else if !in.NoExpiry {
		d := today.Add(DefaultLifetime)
		in.ExpiresAt = &d
	}
	secret := in.Secret
	if secret == "" {
		secret = NewSecret(s.settings.String(ctx, "personal_access_token_prefix"))
	}
	t, err := db.ClientFrom(ctx, s.client).PersonalAccessToken.Create().
		SetUserID(in.UserID).SetName(in.Name).SetDescription(in.Description).
		SetScopes(in.Scopes).SetNillableExpiresAt(in.ExpiresAt).SetImpersonation(in.Impersonation).
		SetTokenDigest(Digest(secret)).Save(ctx)
	if err != nil {
		return nil, "", err
	}
	return t, secret, nil
}
