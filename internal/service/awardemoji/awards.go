package awardemoji

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// List returns a page of the awardable's awards, oldest first as GitLab lists them, each with
// its user.
func (s *Service) List(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, page pagination.Offset) (pagination.Result[*ent.AwardEmoji], error) {
	res := pagination.Result[*ent.AwardEmoji]{Page: page}
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return res, err
	}
	q := s.of(ctx, t)
	n, err := q.Clone().Count(ctx)
	if err != nil {
		return res, err
	}
	rows, err := q.WithUser().Order(ent.Asc(awardemoji.FieldID)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}

// Get returns one award of the awardable (404 Not found for an id not among them).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, awardID string) (*ent.AwardEmoji, error) {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return nil, err
	}
	return s.find(ctx, t, awardID)
}

func (s *Service) of(ctx context.Context, t Target) *ent.AwardEmojiQuery {
	return db.ClientFrom(ctx, s.client).AwardEmoji.Query().
		Where(awardemoji.AwardableTypeEQ(awardemoji.AwardableType(t.Type)), awardemoji.AwardableID(t.ID))
}

func (s *Service) find(ctx context.Context, t Target, awardID string) (*ent.AwardEmoji, error) {
	id, err := strconv.Atoi(awardID)
	if err != nil {
		return nil, apperr.RecordNotFound()
	}
	a, err := s.of(ctx, t).Where(awardemoji.ID(id)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return a, err
}

// Award reacts to the awardable with the emoji name ("+1" and "-1" stand for thumbsup and
// thumbsdown). As GitLab's API does, every refusal is a 404 naming the award: one the actor may
// not award to ("Award Emoji Not Found"), an unknown name or one already awarded ("Award Emoji
// Name ... Not Found").
func (s *Service) Award(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, name string) (*ent.AwardEmoji, error) {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return nil, err
	}
	if !t.CanAward || actor.IsAnonymous() {
		return nil, apperr.NotFound("Award Emoji")
	}
	if t.NotAwardable {
		return nil, apperr.NotFound("Award Emoji Awardable cannot be awarded emoji")
	}
	name = Normalize(name)
	var problems []string
	if strings.TrimSpace(name) == "" {
		problems = append(problems, "Name can't be blank")
	}
	if !Valid(name) {
		problems = append(problems, "Name is not a valid emoji name")
	}
	if len(problems) > 0 {
		return nil, apperr.NotFound("Award Emoji " + strings.Join(problems, " and "))
	}
	var id int
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		taken, err := c.AwardEmoji.Query().Where(awardemoji.UserID(actor.UserID()),
			awardemoji.AwardableTypeEQ(awardemoji.AwardableType(t.Type)), awardemoji.AwardableID(t.ID),
			awardemoji.Name(name)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return errTaken
		}
		a, err := c.AwardEmoji.Create().SetName(name).SetUserID(actor.UserID()).
			SetAwardableType(awardemoji.AwardableType(t.Type)).SetAwardableID(t.ID).Save(ctx)
		if ent.IsConstraintError(err) {
			return errTaken // a concurrent identical award won
		}
		if err != nil {
			return err
		}
		id = a.ID
		return s.changed(ctx, actor, "award", a)
	})
	if err != nil {
		return nil, err
	}
	return s.client.AwardEmoji.Query().Where(awardemoji.ID(id)).WithUser().Only(ctx)
}

var errTaken = apperr.NotFound("Award Emoji Name has already been taken")

// Remove deletes an award: its user's own, or any as an administrator; anyone else is refused
// with 401 as GitLab's API does (404 Not found for an id not on the awardable).
func (s *Service) Remove(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, awardID string) error {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return err
	}
	a, err := s.find(ctx, t, awardID)
	if err != nil {
		return err
	}
	if actor.IsAnonymous() || (a.UserID != actor.UserID() && !actor.IsAdmin()) {
		return apperr.Unauthorized()
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.AwardEmoji.DeleteOneID(a.ID).Exec(ctx); err != nil {
			return err
		}
		return s.changed(ctx, actor, "revoke", a)
	})
}

// RemoveAll deletes the awards of an awardable that is going away (its domain calls it in the
// deletion's transaction: the table has no foreign key to the many awardable tables).
func RemoveAll(ctx context.Context, c *ent.Client, typ string, id int) error {
	_, err := c.AwardEmoji.Delete().Where(awardemoji.AwardableTypeEQ(awardemoji.AwardableType(typ)),
		awardemoji.AwardableID(id)).Exec(ctx)
	return err
}
