package tokens

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// RevokeResource handles DELETE /projects/:id/access_tokens/:token_id (and the group route).
// The bot keeps its membership, as in GitLab, so the revoked token still lists as inactive.
func (s *Service) RevokeResource(ctx context.Context, actor *authz.Actor, r Resource, tokenID string) error {
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return err
	}
	tok, err := s.findResourceToken(ctx, t, tokenID)
	if err != nil {
		return err
	}
	if tok == nil {
		return tokenNotFound(t, tokenID)
	}
	if !t.manage {
		bot, err := s.users.Get(ctx, tok.UserID)
		if err != nil {
			return err
		}
		return badRequest(actor.User.Name + " cannot delete " + bot.Name)
	}
	return s.revoke(ctx, tok)
}

// RotateResource handles POST /projects/:id/access_tokens/:token_id/rotate (and the group
// route). Without the right to manage tokens, or for an unknown token, only administrators
// learn it does not exist (404); others get 401. A token whose bot outranks the actor cannot
// be rotated by it.
func (s *Service) RotateResource(ctx context.Context, actor *authz.Actor, r Resource, tokenID string, in RotateInput) (*ResourceToken, string, error) {
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, "", err
	}
	var tok *ent.PersonalAccessToken
	if t.manage {
		if tok, err = s.findResourceToken(ctx, t, tokenID); err != nil {
			return nil, "", err
		}
	}
	if tok == nil {
		return nil, "", hiddenToken(actor)
	}
	cur, err := s.decorateOne(ctx, t, tok)
	if err != nil {
		return nil, "", err
	}
	if !actor.IsAdmin() && authz.Level(cur.AccessLevel) > t.level {
		return nil, "", badRequest("Not eligible to rotate token with access level higher than the user")
	}
	return s.rotateResource(ctx, t, tok, in)
}

// RotateResourceSelf handles POST /projects/:id/access_tokens/self/rotate (and the group
// route): a bot rotates the token it authenticated with. Non-bots get 405; a token of another
// resource gets 401.
func (s *Service) RotateResourceSelf(ctx context.Context, actor *authz.Actor, r Resource, in RotateInput) (*ResourceToken, string, error) {
	if actor.Token == nil || actor.IsAnonymous() || actor.User.UserType != BotType {
		return nil, "", apperr.NotAllowed("")
	}
	t, err := s.resolve(ctx, actor, r)
	if err != nil {
		return nil, "", err
	}
	tok, err := s.findResourceToken(ctx, t, strconv.Itoa(actor.Token.ID))
	if err != nil {
		return nil, "", err
	}
	if tok == nil {
		return nil, "", apperr.Unauthorized()
	}
	return s.rotateResource(ctx, t, tok, in)
}

func (s *Service) rotateResource(ctx context.Context, t *target, tok *ent.PersonalAccessToken, in RotateInput) (*ResourceToken, string, error) {
	next, secret, err := s.rotate(ctx, tok, in)
	if err != nil {
		return nil, "", err
	}
	out, err := s.decorateOne(ctx, t, next)
	if err != nil {
		return nil, "", err
	}
	return out, secret, nil
}
