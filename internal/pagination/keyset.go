package pagination

import (
	"strconv"

	"anvil/internal/apperr"

	"entgo.io/ent/dialect/sql"
)

// KeysetIDKey is the cursor key holding the id tiebreak of the last row of a page.
const KeysetIDKey = "id"

// NewKeyset is a keyset page request of perPage rows after cursor, the opaque value the client
// sent back (empty for the first page). A cursor that does not decode is answered 400 "cursor
// is invalid".
func NewKeyset(cursor string, perPage int) (Page, error) {
	k := KeysetAt(nil, perPage)
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

// KeysetLimit is the number of rows to fetch for a keyset page: one more than a page, so that
// the extra row tells whether a next page exists without counting.
func (p Page) KeysetLimit() int { return p.PerPage + 1 }

// Position returns the cursor's position in the order column orderBy: the last row's order
// value and its id. ok is false on the first page. A cursor that lacks either key, or whose id
// is not a number, is invalid.
func (p Page) Position(orderBy string) (value string, id int, ok bool, err error) {
	if p.Cursor == nil {
		return "", 0, false, nil
	}
	rawID, hasID := p.Cursor[KeysetIDKey]
	value, hasValue := p.Cursor[orderBy]
	id, convErr := strconv.Atoi(rawID)
	if !hasID || !hasValue || convErr != nil {
		return "", 0, false, apperr.Invalid("cursor")
	}
	return value, id, true, nil
}

// After is the value of the named continuation parameter (page_token, last) of a keyset page,
// "" on the first page.
func (p Page) After(param string) string { return p.Cursor[param] }

// KeysetCursor encodes the position of a row for the next page's cursor: its value in the order
// column orderBy and its id.
func KeysetCursor(orderBy, value string, id int) string {
	return EncodeCursor(map[string]string{orderBy: value, KeysetIDKey: strconv.Itoa(id)})
}

// KeysetPage trims rows fetched with page.KeysetLimit() to one page. When a further row exists, Next holds
// the query parameter that continues after the page's last row: param set to token(last).
// Repository trees pass "page_token" and the last name; SQL lists pass "cursor" and KeysetCursor.
func KeysetPage[T any](page Page, rows []T, param string, token func(last T) string) Result[T] {
	r := Result[T]{Total: -1, Page: Offset{Page: 1, PerPage: page.PerPage}, Keyset: true}
	if len(rows) > page.PerPage {
		rows = rows[:page.PerPage]
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
