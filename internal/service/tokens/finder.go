package tokens

import (
	"anvil/ent/predicate"
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"

	entsql "entgo.io/ent/dialect/sql"
)

// ListParams are the filters of GET /personal_access_tokens, in GitLab's spelling. A nil or
// zero field means no filter.
type ListParams struct {
	// UserID (user_id): only this user's tokens. Administrators may name anyone; others only
	// themselves (401 otherwise).
	UserID *int
	// Impersonation narrows to impersonation tokens (true) or to ordinary ones (false).
	// Non-administrators never see impersonation tokens.
	Impersonation *bool
	// Revoked (revoked): revoked tokens only (true) or unrevoked only (false).
	Revoked *bool
	// State (state): "active" (usable) or "inactive" (revoked or expired).
	State string
	// CreatedBefore/CreatedAfter (created_before, created_after): inclusive bounds.
	CreatedBefore, CreatedAfter *time.Time
	// LastUsedBefore/LastUsedAfter (last_used_before, last_used_after): inclusive bounds;
	// never-used tokens match neither.
	LastUsedBefore, LastUsedAfter *time.Time
	// ExpiresBefore (expires_before) is exclusive, ExpiresAfter (expires_after) inclusive.
	ExpiresBefore, ExpiresAfter *time.Time
	// Search (search) matches the name: a substring for three or more characters, the whole
	// name (case-insensitively) for shorter terms.
	Search string
	// Sort (sort): created_asc, created_desc, name_asc, name_desc, expires_asc, expires_desc,
	// last_used_asc, last_used_desc, updated_asc, updated_desc, id_asc, id_desc; anything else
	// keeps GitLab's default (id ascending).
	Sort string
}

// Query returns the tokens matching p that actor may list, unordered.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.PersonalAccessTokenQuery, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	q := db.ClientFrom(ctx, s.client).PersonalAccessToken.Query()
	if actor.IsAdmin() {
		if p.UserID != nil {
			if _, err := s.users.Get(ctx, *p.UserID); err != nil {
				return nil, apperr.NotFound("")
			}
			q = q.Where(personalaccesstoken.UserID(*p.UserID))
		}
	} else {
		if p.UserID != nil && *p.UserID != actor.UserID() {
			return nil, apperr.Unauthorized()
		}
		f := false
		q = q.Where(personalaccesstoken.UserID(actor.UserID()))
		p.Impersonation = &f
	}
	return filter(q, p), nil
}

// filter applies the filters that do not depend on the actor.
func filter(q *ent.PersonalAccessTokenQuery, p ListParams) *ent.PersonalAccessTokenQuery {
	if p.Impersonation != nil {
		q = q.Where(personalaccesstoken.Impersonation(*p.Impersonation))
	}
	if p.Revoked != nil {
		q = q.Where(personalaccesstoken.Revoked(*p.Revoked))
	}
	q = byState(q, p.State)
	if p.CreatedBefore != nil {
		q = q.Where(personalaccesstoken.CreatedAtLTE(*p.CreatedBefore))
	}
	if p.CreatedAfter != nil {
		q = q.Where(personalaccesstoken.CreatedAtGTE(*p.CreatedAfter))
	}
	if p.LastUsedBefore != nil {
		q = q.Where(personalaccesstoken.LastUsedAtLTE(*p.LastUsedBefore))
	}
	if p.LastUsedAfter != nil {
		q = q.Where(personalaccesstoken.LastUsedAtGTE(*p.LastUsedAfter))
	}
	if p.ExpiresBefore != nil {
		q = q.Where(personalaccesstoken.ExpiresAtLT(*p.ExpiresBefore))
	}
	if p.ExpiresAfter != nil {
		q = q.Where(personalaccesstoken.ExpiresAtGTE(*p.ExpiresAfter))
	}
	if p.Search != "" {
		if len([]rune(p.Search)) >= 3 {
			q = q.Where(predicate.PersonalAccessToken(db.ContainsFold(personalaccesstoken.FieldName, p.Search)))
		} else {
			q = q.Where(personalaccesstoken.NameEqualFold(p.Search))
		}
	}
	return q
}

// byState keeps active tokens (not revoked, not expired) or inactive ones (the rest).
func byState(q *ent.PersonalAccessTokenQuery, state string) *ent.PersonalAccessTokenQuery {
	now := time.Now().UTC()
	switch state {
	case "active":
		return q.Where(personalaccesstoken.Revoked(false),
			personalaccesstoken.Or(personalaccesstoken.ExpiresAtIsNil(), personalaccesstoken.ExpiresAtGT(now)))
	case "inactive":
		return q.Where(personalaccesstoken.Or(personalaccesstoken.Revoked(true), personalaccesstoken.ExpiresAtLTE(now)))
	}
	return q
}

// sortOrders maps GitLab's sort values to orderings; id breaks ties.
var sortOrders = map[string][]personalaccesstoken.OrderOption{
	"created_asc":     {personalaccesstoken.ByCreatedAt(), personalaccesstoken.ByID()},
	"created_at_asc":  {personalaccesstoken.ByCreatedAt(), personalaccesstoken.ByID()},
	"created_desc":    {personalaccesstoken.ByCreatedAt(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"created_at_desc": {personalaccesstoken.ByCreatedAt(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"created_date":    {personalaccesstoken.ByCreatedAt(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"updated_asc":     {personalaccesstoken.ByUpdatedAt(), personalaccesstoken.ByID()},
	"updated_at_asc":  {personalaccesstoken.ByUpdatedAt(), personalaccesstoken.ByID()},
	"updated_desc":    {personalaccesstoken.ByUpdatedAt(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"updated_at_desc": {personalaccesstoken.ByUpdatedAt(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"name_asc":        {personalaccesstoken.ByName(), personalaccesstoken.ByID()},
	"name_desc":       {personalaccesstoken.ByName(entsql.OrderDesc()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"id_asc":          {personalaccesstoken.ByID()},
	"id_desc":         {personalaccesstoken.ByID(entsql.OrderDesc())},
	"expires_asc":     {personalaccesstoken.ByExpiresAt(entsql.OrderNullsLast()), personalaccesstoken.ByID()},
	"expires_desc":    {personalaccesstoken.ByExpiresAt(entsql.OrderDesc(), entsql.OrderNullsLast()), personalaccesstoken.ByID(entsql.OrderDesc())},
	"expires_at_asc_id_desc": {
		personalaccesstoken.ByExpiresAt(entsql.OrderNullsLast()), personalaccesstoken.ByID(entsql.OrderDesc()),
	},
	"last_used_asc":  {personalaccesstoken.ByLastUsedAt(entsql.OrderNullsLast()), personalaccesstoken.ByID()},
	"last_used_desc": {personalaccesstoken.ByLastUsedAt(entsql.OrderDesc(), entsql.OrderNullsLast()), personalaccesstoken.ByID(entsql.OrderDesc())},
}

// SortValues are the accepted values of the sort parameter.
func SortValues() []string {
	out := make([]string, 0, len(sortOrders))
	for k := range sortOrders {
		out = append(out, k)
	}
	return out
}

// order applies sort, or GitLab's default id order.
func order(q *ent.PersonalAccessTokenQuery, sort string) *ent.PersonalAccessTokenQuery {
	if o, ok := sortOrders[sort]; ok {
		return q.Order(o...)
	}
	return q.Order(personalaccesstoken.ByID())
}

// List is Query plus ordering and offset pagination.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset) (pagination.Result[*ent.PersonalAccessToken], error) {
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return pagination.Result[*ent.PersonalAccessToken]{}, err
	}
	return paginate(ctx, q, p.Sort, page)
}

// paginate counts the unordered query (up to GitLab's count limit), then orders it and fetches
// one page.
func paginate(ctx context.Context, q *ent.PersonalAccessTokenQuery, sort string, page pagination.Offset) (pagination.Result[*ent.PersonalAccessToken], error) {
	res := pagination.Result[*ent.PersonalAccessToken]{Page: page}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return res, err
	}
	if total > pagination.CountLimit {
		total = -1
	}
	rows, err := order(q, sort).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, total
	return res, nil
}
