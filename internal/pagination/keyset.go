package pagination

import (
	"strconv"

	"anvil/internal/apperr"

	"entgo.io/ent/dialect/sql"
)

// KeysetIDKey is the cursor key holding the id tiebreak of the last row of a page.
const KeysetIDKey = "id"

// NewKeyset validates a keyset page request. orderBy and sort must already be checked against
// the caller's allowed values; cursor is the opaque value the client sent back (empty for the
// first page). A cursor that does not decode is answered 400 "cursor is invalid".
func NewKeyset(orderBy, sort, cursor string, perPage int) (Keyset, error) {
	k := Keyset{OrderBy: orderBy, Sort: sort, PerPage: NewOffset(1, perPage).PerPage}
	if cursor == "" {
		return k, nil
	}
	m, ok := DecodeCursor(cursor)
	if !ok || m == nil {
		return k, apperr.Invalid("cursor")
	}
	k.Cursor = m
	return k, nil
}

// Desc reports whether the order is descending.
func (k Keyset) Desc() bool { return k.Sort == "desc" }

// Limit is the number of rows to fetch: one more than a page, so that the extra row tells
// whether a next page exists without counting.
func (k Keyset) Limit() int { return k.PerPage + 1 }

// Position returns the cursor's position: the last row's order value and its id. ok is false on
// the first page. A cursor that lacks either key, or whose id is not a number, is invalid.
func (k Keyset) Position() (value string, id int, ok bool, err error) {
	if k.Cursor == nil {
		return "", 0, false, nil
	}
	rawID, hasID := k.Cursor[KeysetIDKey]
	value, hasValue := k.Cursor[k.OrderBy]
	id, convErr := strconv.Atoi(rawID)
	if !hasID || !hasValue || convErr != nil {
		return "", 0, false, apperr.Invalid("cursor")
	}
	return value, id, true, nil
}

// KeysetCursor encodes the position of a row for the next page's cursor: its value in the order
// column orderBy and its id.
func KeysetCursor(orderBy, value string, id int) string {
	return EncodeCursor(map[string]string{orderBy: value, KeysetIDKey: strconv.Itoa(id)})
}

// KeysetPage trims rows fetched with k.Limit() to one page. When a further row exists, Next holds
// the query parameter that continues after the page's last row: param set to token(last).
// Repository trees pass "page_token" and the last name; SQL lists pass "cursor" and KeysetCursor.
func KeysetPage[T any](k Keyset, rows []T, param string, token func(last T) string) Result[T] {
	r := Result[T]{Total: -1, Page: Offset{Page: 1, PerPage: k.PerPage}}
	if len(rows) > k.PerPage {
		rows = rows[:k.PerPage]
		r.Next = map[string]string{param: token(rows[len(rows)-1])}
	}
	r.Items = rows
	return r
}

// KeysetAfter is the SQL condition for rows strictly after the position (value, id) in the order
// "col, idCol" (both ascending, or both descending when desc): col beyond value, or col equal to
// value and idCol beyond id. With col == idCol it is idCol beyond id alone.
func KeysetAfter(col string, value any, idCol string, id int, desc bool) func(*sql.Selector) {
	beyond := sql.GT
	if desc {
		beyond = sql.LT
	}
	return func(s *sql.Selector) {
		if col == idCol {
			s.Where(beyond(s.C(idCol), id))
			return
		}
		s.Where(sql.Or(
			beyond(s.C(col), value),
			sql.And(sql.EQ(s.C(col), value), beyond(s.C(idCol), id)),
		))
	}
}

// KeysetOrder orders by col then by the idCol tiebreak, both in the same direction, which is
// the order KeysetAfter continues.
func KeysetOrder(col, idCol string, desc bool) func(*sql.Selector) {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	cols := []string{col}
	if col != idCol {
		cols = append(cols, idCol)
	}
	return func(s *sql.Selector) {
		for _, c := range cols {
			s.OrderExpr(sql.ExprFunc(func(b *sql.Builder) { b.Ident(s.C(c)).WriteString(dir) }))
		}
	}
}
