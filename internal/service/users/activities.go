package users

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// Activities returns one page of the users active on or after from (GET /user/activities,
// administrators only), least recently active first as GitLab orders them.
func (s *Service) Activities(ctx context.Context, actor *authz.Actor, from time.Time, page pagination.Offset) (pagination.Result[*ent.User], error) {
	var r pagination.Result[*ent.User]
	if !actor.IsAdmin() {
		return r, apperr.Forbidden("")
	}
	from = time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	q := db.ClientFrom(ctx, s.client).User.Query().Where(user.LastActivityOnGTE(from))
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return r, err
	}
	rows, err := q.Order(ent.Asc(user.FieldLastActivityOn), ent.Asc(user.FieldID)).
		Select(user.FieldUsername, user.FieldLastActivityOn).
		Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, err
	}
	return pagination.OffsetResult(rows, pagination.BoundedTotal(n), page), nil
}
