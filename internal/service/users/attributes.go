package users

import (
	"context"

	"anvil/ent"
	"anvil/ent/usercustomattribute"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// attributeOwner checks ability and returns the user whose custom attributes are addressed:
// 401/403 without the ability, 404 "404 Not Found" for an unknown user.
func (s *Service) attributeOwner(ctx context.Context, actor *authz.Actor, userID int, ability authz.Ability) (*ent.User, error) {
	if err := authz.UserAllowed(actor, nil, ability); err != nil {
		return nil, err
	}
	u, err := db.ClientFrom(ctx, s.client).User.Get(ctx, userID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("")
	}
	return u, err
}

// CustomAttributes lists a user's custom attributes (administrators only), oldest first.
func (s *Service) CustomAttributes(ctx context.Context, actor *authz.Actor, userID int) ([]*ent.UserCustomAttribute, error) {
	u, err := s.attributeOwner(ctx, actor, userID, authz.ReadCustomAttribute)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).UserCustomAttribute.Query().
		Where(usercustomattribute.UserID(u.ID)).Order(ent.Asc(usercustomattribute.FieldID)).All(ctx)
}

// CustomAttribute returns one custom attribute by key (administrators only): "404 Not found"
// when the user has no such key.
func (s *Service) CustomAttribute(ctx context.Context, actor *authz.Actor, userID int, key string) (*ent.UserCustomAttribute, error) {
	u, err := s.attributeOwner(ctx, actor, userID, authz.ReadCustomAttribute)
	if err != nil {
		return nil, err
	}
	a, err := db.ClientFrom(ctx, s.client).UserCustomAttribute.Query().
		Where(usercustomattribute.UserID(u.ID), usercustomattribute.Key(key)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return a, err
}

// SetCustomAttribute creates or updates a custom attribute (administrators only). Keys and
// values are at most 255 characters.
func (s *Service) SetCustomAttribute(ctx context.Context, actor *authz.Actor, userID int, key, value string) (*ent.UserCustomAttribute, error) {
	if _, err := s.attributeOwner(ctx, actor, userID, authz.UpdateCustomAttribute); err != nil {
		return nil, err
	}
	p := problems{}
	p.tooLong("key", key, 255)
	p.tooLong("value", value, 255)
	if err := p.err(); err != nil {
		return nil, err
	}
	var out *ent.UserCustomAttribute
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		a, err := c.UserCustomAttribute.Query().
			Where(usercustomattribute.UserID(userID), usercustomattribute.Key(key)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			out, err = c.UserCustomAttribute.Create().SetUserID(userID).SetKey(key).SetValue(value).Save(ctx)
		case err == nil:
			out, err = a.Update().SetValue(value).Save(ctx)
		}
		return err
	})
	return out, err
}

// DeleteCustomAttribute removes a custom attribute (administrators only): "404 Custom attribute
// Not Found" when the user has no such key.
func (s *Service) DeleteCustomAttribute(ctx context.Context, actor *authz.Actor, userID int, key string) error {
	if _, err := s.attributeOwner(ctx, actor, userID, authz.UpdateCustomAttribute); err != nil {
		return err
	}
	n, err := db.ClientFrom(ctx, s.client).UserCustomAttribute.Delete().
		Where(usercustomattribute.UserID(userID), usercustomattribute.Key(key)).Exec(ctx)
	if err == nil && n == 0 {
		return apperr.NotFound("Custom attribute")
	}
	return err
}
