package tokens

import (
	"context"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// requireAdmin answers 401 to anonymous callers and 403 to everyone but administrators.
func requireAdmin(actor *authz.Actor) error {
	switch {
	case actor.IsAnonymous():
		return apperr.Unauthorized()
	case !actor.IsAdmin():
		return apperr.Forbidden("")
	}
	return nil
}

// impersonationQuery is the impersonation tokens of an existing user, for administrators.
func (s *Service) impersonationQuery(ctx context.Context, actor *authz.Actor, userID int) (*ent.PersonalAccessTokenQuery, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	if _, err := s.users.Get(ctx, userID); err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).PersonalAccessToken.Query().
		Where(personalaccesstoken.UserID(userID), personalaccesstoken.Impersonation(true)), nil
}

// ListImpersonation handles GET /users/:user_id/impersonation_tokens; state is all (or
// empty), active or inactive.
func (s *Service) ListImpersonation(ctx context.Context, actor *authz.Actor, userID int, state string, page pagination.Offset) (pagination.Result[*ent.PersonalAccessToken], error) {
	q, err := s.impersonationQuery(ctx, actor, userID)
	if err != nil {
		return pagination.Result[*ent.PersonalAccessToken]{}, err
	}
	return paginate(ctx, byState(q, state), "", page)
}

// GetImpersonation handles GET /users/:user_id/impersonation_tokens/:impersonation_token_id.
func (s *Service) GetImpersonation(ctx context.Context, actor *authz.Actor, userID, id int) (*ent.PersonalAccessToken, error) {
	q, err := s.impersonationQuery(ctx, actor, userID)
	if err != nil {
		return nil, err
	}
	t, err := q.Where(personalaccesstoken.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Impersonation Token")
	}
	return t, err
}

// CreateImpersonation handles POST /users/:user_id/impersonation_tokens. Unlike personal
// tokens, expires_at and scopes have no defaults here; failures are model validation errors
// (400 {"message":{"expires_at":["can't be blank"]}}).
func (s *Service) CreateImpersonation(ctx context.Context, actor *authz.Actor, in CreateInput) (*ent.PersonalAccessToken, string, error) {
	if _, err := s.impersonationQuery(ctx, actor, in.UserID); err != nil {
		return nil, "", err
	}
	attrs := tokenAttrs{Name: in.Name, Description: in.Description, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt, RequireExpiry: true}
	if f := attrs.validate(); !f.empty() {
		return nil, "", f.validation()
	}
	var (
		t      *ent.PersonalAccessToken
		secret string
	)
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		var err error
		t, secret, err = s.insert(ctx, c, CreateInput{
			UserID: in.UserID, Name: attrs.Name, Description: in.Description, Scopes: in.Scopes,
			ExpiresAt: attrs.ExpiresAt, Impersonation: true,
		})
		return err
	})
	return t, secret, err
}

// RevokeImpersonation handles DELETE /users/:user_id/impersonation_tokens/:impersonation_token_id.
func (s *Service) RevokeImpersonation(ctx context.Context, actor *authz.Actor, userID, id int) error {
	t, err := s.GetImpersonation(ctx, actor, userID, id)
	if err != nil {
		return err
	}
	return s.revoke(ctx, t)
}
