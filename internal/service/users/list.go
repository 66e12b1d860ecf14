package users

import (
	"context"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"

	"entgo.io/ent/dialect/sql"
)

// List returns one page of the users matching p, ordered by o (administrators only; id desc
// otherwise, or search relevance on offset pages when p.Search is set and no order was chosen),
// with the edges load names. This is the one list shape every service follows: the finder's
// parameters, the order, the page (offset, or keyset when page.Keyset: Next holds the cursor of
// the following page, empty on the last one, and Total is -1), and the presentation's loads.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page, load Load) (pagination.Result[*ent.User], error) {
	var r pagination.Result[*ent.User]
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return r, err
	}
	if !authz.CanUser(actor, nil, authz.AdminUsers) {
		o = Order{}
	}
	if page.Keyset {
		return s.keysetPage(ctx, actor, q, o, page, load)
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return r, err
	}
	if p.Search != "" && !o.given() {
		q.Order(searchRelevance(searchQuery(p.Search)))
	} else {
		q.Order(pagination.KeysetOrder(o.column(), user.FieldID, o.desc()))
	}
	rows, err := s.load(actor, load).apply(q).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return r, err
	}
	return pagination.OffsetResult(rows, pagination.BoundedTotal(n), page.Offset), nil
}

// keysetPage returns the keyset page of q after page.Cursor in o's order.
func (s *Service) keysetPage(ctx context.Context, actor *authz.Actor, q *ent.UserQuery, o Order, page pagination.Page, load Load) (pagination.Result[*ent.User], error) {
	var r pagination.Result[*ent.User]
	col, desc := o.column(), o.desc()
	value, id, ok, err := page.Position(col)
	if err != nil {
		return r, err
	}
	if ok {
		v, err := cursorValue(col, value)
		if err != nil {
			return r, err
		}
		q.Where(pagination.KeysetAfter(col, v, user.FieldID, id, desc))
	}
	q.Order(pagination.KeysetOrder(col, user.FieldID, desc))
	rows, err := s.load(actor, load).apply(q).Limit(page.KeysetLimit()).All(ctx)
	if err != nil {
		return r, err
	}
	return pagination.KeysetPage(page, rows, "cursor", func(u *ent.User) string {
		return pagination.KeysetCursor(col, orderValue(col, u), u.ID)
	}), nil
}

// Find returns the user id if actor may see it, with the edges load names: 404 User Not Found
// otherwise.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, id int, load Load) (*ent.User, error) {
	q := db.ClientFrom(ctx, s.client).User.Query().Where(user.ID(id))
	u, err := s.load(actor, load).apply(q).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && !authz.CanUser(actor, u, authz.ReadUser)) {
		return nil, apperr.NotFound("User")
	}
	return u, err
}

// FindRef is FindByRef for actor: the user ref names (id or username) if actor may see it,
// 404 User Not Found otherwise.
func (s *Service) FindRef(ctx context.Context, actor *authz.Actor, ref string) (*ent.User, error) {
	u, err := s.FindByRef(ctx, ref)
	if err == nil && !authz.CanUser(actor, u, authz.ReadUser) {
		return nil, apperr.NotFound("User")
	}
	return u, err
}

// load drops the eager loads actor may not see.
func (s *Service) load(actor *authz.Actor, l Load) Load {
	if !authz.CanUser(actor, nil, authz.ReadCustomAttribute) {
		l.CustomAttributes = false
	}
	return l
}

// searchRelevance orders search results as GitLab does: exact public email, then exact
// username, then exact name matches first, then by name and id.
func searchRelevance(query string) func(*sql.Selector) {
	lower := strings.ToLower(query)
	return func(s *sql.Selector) {
		s.OrderExpr(sql.ExprFunc(func(b *sql.Builder) {
			b.WriteString("CASE")
			for rank, col := range []string{user.FieldPublicEmail, user.FieldUsername, user.FieldName} {
				b.WriteString(" WHEN LOWER(").Ident(s.C(col)).WriteString(") = ").Arg(lower).
					WriteString(" THEN " + strconv.Itoa(rank))
			}
			b.WriteString(" ELSE 3 END")
		}))
		pagination.KeysetOrder(user.FieldName, user.FieldID, false)(s)
	}
}

// orderValue is u's value in the order column, as a cursor holds it.
func orderValue(col string, u *ent.User) string {
	switch col {
	case OrderName:
		return u.Name
	case OrderUsername:
		return u.Username
	case OrderUpdatedAt:
		return u.UpdatedAt.UTC().Format(time.RFC3339Nano)
	}
	return strconv.Itoa(u.ID)
}

// cursorValue converts a cursor's order value back to the column's type.
func cursorValue(col, value string) (any, error) {
	switch col {
	case OrderUpdatedAt:
		t, err := time.Parse(time.RFC3339Nano, value)
		if err != nil {
			return nil, apperr.Invalid("cursor")
		}
		return t.UTC(), nil
	case OrderID:
		id, err := strconv.Atoi(value)
		if err != nil {
			return nil, apperr.Invalid("cursor")
		}
		return id, nil
	}
	return value, nil
}
