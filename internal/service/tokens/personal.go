package tokens

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// RotateInput holds the parameters of a rotation.
type RotateInput struct {
	// ExpiresAt is the new token's expiry; nil means a week from today.
	ExpiresAt *time.Time
}

// owns reports whether actor may manage t as its user: administrators and the token's owner
// (GitLab's read_user_personal_access_tokens and manage_user_personal_access_token).
func owns(actor *authz.Actor, t *ent.PersonalAccessToken) bool {
	return actor.IsAdmin() || (!actor.IsAnonymous() && t.UserID == actor.UserID())
}

// hiddenToken is the answer for a token the actor may not see: only administrators learn that
// it does not exist; everyone else gets 401.
func hiddenToken(actor *authz.Actor) error {
	if actor.IsAdmin() {
		return apperr.NotFound("")
	}
	return apperr.Unauthorized()
}

// find loads a token by id, nil when there is none.
func (s *Service) find(ctx context.Context, id int) (*ent.PersonalAccessToken, error) {
	t, err := db.ClientFrom(ctx, s.client).PersonalAccessToken.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return t, err
}

// Get handles GET /personal_access_tokens/:id: the actor's own token, or any token for
// administrators.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, id int) (*ent.PersonalAccessToken, error) {
	t, err := s.find(ctx, id)
	if err != nil {
		return nil, err
	}
	if t == nil || !owns(actor, t) {
		return nil, hiddenToken(actor)
	}
	return t, nil
}

// Revoke handles DELETE /personal_access_tokens/:id. An unknown id is 404 "404 Not found"; a
// token the actor may not revoke is a 400 naming the reason, as GitLab's revoke service does.
// Revoking twice succeeds.
func (s *Service) Revoke(ctx context.Context, actor *authz.Actor, id int) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	t, err := s.find(ctx, id)
	if err != nil {
		return err
	}
	if t == nil {
		return apperr.RecordNotFound()
	}
	if !owns(actor, t) {
		return apperr.BadRequest("Not permitted to revoke")
	}
	return s.revoke(ctx, t)
}

// RevokeSelf handles DELETE /personal_access_tokens/self: the token the request came with.
func (s *Service) RevokeSelf(ctx context.Context, actor *authz.Actor) error {
	if actor.Token == nil {
		return apperr.Unauthorized()
	}
	return s.revoke(ctx, actor.Token)
}

func (s *Service) revoke(ctx context.Context, t *ent.PersonalAccessToken) error {
	if err := db.ClientFrom(ctx, s.client).PersonalAccessToken.UpdateOneID(t.ID).SetRevoked(true).Exec(ctx); err != nil {
		return err
	}
	t.Revoked = true
	return nil
}

// Rotate handles POST /personal_access_tokens/:id/rotate: the token is revoked and replaced by
// a new one with the same attributes and a new secret.
func (s *Service) Rotate(ctx context.Context, actor *authz.Actor, id int, in RotateInput) (*ent.PersonalAccessToken, string, error) {
	t, err := s.find(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if t == nil || !owns(actor, t) {
		return nil, "", hiddenToken(actor)
	}
	return s.rotate(ctx, t, in)
}

// RotateSelf handles POST /personal_access_tokens/self/rotate.
func (s *Service) RotateSelf(ctx context.Context, actor *authz.Actor, in RotateInput) (*ent.PersonalAccessToken, string, error) {
	if actor.Token == nil {
		return nil, "", apperr.Unauthorized()
	}
	return s.rotate(ctx, actor.Token, in)
}

// rotate revokes old and issues its successor in one transaction. Failures are GitLab's
// "400 Bad request - <reason>".
func (s *Service) rotate(ctx context.Context, old *ent.PersonalAccessToken, in RotateInput) (*ent.PersonalAccessToken, string, error) {
	if old.Revoked {
		return nil, "", badRequest("Token already revoked")
	}
	expires := in.ExpiresAt
	if expires == nil {
		d := today().Add(RotationLifetime)
		expires = &d
	}
	attrs := tokenAttrs{Name: old.Name, Description: old.Description, Scopes: old.Scopes, ExpiresAt: expires}
	if f := attrs.validate(); !f.empty() {
		return nil, "", badRequest(f.sentence())
	}
	var (
		t      *ent.PersonalAccessToken
		secret string
	)
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		// Revoke only if still unrevoked, so two concurrent rotations cannot both succeed.
		n, err := c.PersonalAccessToken.Update().
			Where(personalaccesstoken.ID(old.ID), personalaccesstoken.Revoked(false)).SetRevoked(true).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return badRequest("Token already revoked")
		}
		t, secret, err = s.insert(ctx, c, CreateInput{
			UserID: old.UserID, Name: old.Name, Description: old.Description, Scopes: old.Scopes,
			ExpiresAt: attrs.ExpiresAt, Impersonation: old.Impersonation,
		})
		if err != nil {
			return err
		}
		// A bot's membership must outlive its tokens: clear any expiry, as GitLab does on rotation.
		return c.Member.Update().
			Where(member.UserID(old.UserID), member.ExpiresAtNotNil(), member.HasUserWith(user.UserTypeNEQ(humanType))).
			ClearExpiresAt().Exec(ctx)
	})
	if err != nil {
		return nil, "", err
	}
	old.Revoked = true
	return t, secret, nil
}

// badRequest is GitLab's bad_request!(reason).
func badRequest(reason string) error { return apperr.BadRequest(reason) }
