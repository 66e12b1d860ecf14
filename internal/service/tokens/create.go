package tokens

import (
	"context"
	"slices"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// CreateInput holds a new personal access token's attributes.
type CreateInput struct {
	UserID      int
	Name        string
	Description string
	Scopes      []string
	// ExpiresAt is the expiry date; nil means the default lifetime (DefaultLifetime).
	ExpiresAt     *time.Time
	Impersonation bool
	// NoExpiry leaves the token without expiry (the initial root token; system callers only).
	NoExpiry bool
	// Secret, when set, is used as the token instead of a generated one (ANVIL_INITIAL_ROOT_TOKEN;
	// system callers only).
	Secret string
}

// Create issues a personal access token for in.UserID and returns it with its secret, which
// is never stored. A nil actor is the system (start-up, the token CLI, fixtures) and skips
// permission checks; otherwise only administrators, or users for themselves, may create
// (POST /users/:user_id/personal_access_tokens). Invalid attributes answer 422 with GitLab's
// sentence, e.g. "Expires at must be before 2026-01-01".
func (s *Service) Create(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.PersonalAccessToken, string, error) {
	if actor != nil {
		if err := s.checkCreate(ctx, actor, in.UserID); err != nil {
			return nil, "", err
		}
		in.NoExpiry, in.Secret = false, ""
	}
	if in.ExpiresAt == nil && !in.NoExpiry {
		d := today().Add(DefaultLifetime)
		in.ExpiresAt = &d
	}
	attrs := tokenAttrs{Name: in.Name, Description: in.Description, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt}
	if f := attrs.validate(); !f.empty() {
		return nil, "", apperr.Unprocessable(f.sentence())
	}
	in.Name, in.ExpiresAt = attrs.Name, attrs.ExpiresAt
	var (
		t      *ent.PersonalAccessToken
		secret string
	)
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		var err error
		t, secret, err = s.insert(ctx, c, in)
		return err
	})
	return t, secret, err
}

// CreateOwn handles POST /user/personal_access_tokens: a token for the actor itself, limited
// to SelfServiceScopes and, by default, expiring the next day.
func (s *Service) CreateOwn(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.PersonalAccessToken, string, error) {
	if actor.IsAnonymous() {
		return nil, "", apperr.Unauthorized()
	}
	for _, sc := range in.Scopes {
		if !slices.Contains(SelfServiceScopes, sc) {
			return nil, "", apperr.NotAllowedValue("scopes")
		}
	}
	if in.ExpiresAt == nil {
		d := today().AddDate(0, 0, 1)
		in.ExpiresAt = &d
	}
	in.UserID, in.Impersonation = actor.UserID(), false
	return s.Create(ctx, actor, in)
}

// checkCreate applies GitLab's create_user_personal_access_token rule: administrators for
// anyone, users for themselves. The target must exist (404 User Not Found).
func (s *Service) checkCreate(ctx context.Context, actor *authz.Actor, userID int) error {
	switch {
	case actor.IsAnonymous():
		return apperr.Unauthorized()
	case !actor.IsAdmin() && actor.UserID() != userID:
		return apperr.Forbidden("")
	}
	_, err := s.users.Get(ctx, userID)
	return err
}

// insert writes a token row with a fresh secret carrying the instance's token prefix.
func (s *Service) insert(ctx context.Context, c *ent.Client, in CreateInput) (*ent.PersonalAccessToken, string, error) {
	secret := in.Secret
	if secret == "" {
		secret = NewSecret(s.settings.String(ctx, "personal_access_token_prefix"))
	}
	t, err := c.PersonalAccessToken.Create().
		SetUserID(in.UserID).SetName(in.Name).SetDescription(in.Description).
		SetScopes(in.Scopes).SetNillableExpiresAt(in.ExpiresAt).SetImpersonation(in.Impersonation).
		SetLastUsedIps([]string{}).SetTokenDigest(Digest(secret)).Save(ctx)
	if err != nil {
		return nil, "", err
	}
	return t, secret, nil
}
