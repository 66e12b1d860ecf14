// Package pagination holds the page requests every list shares: offset pages (page, per_page)
// and keyset cursors. It validates them once; rest/ only writes the resulting headers.
package pagination

import (
	"encoding/base64"
	"encoding/json"
)

// DefaultPerPage and MaxPerPage are GitLab's page sizes: larger requests are clamped silently.
const (
	DefaultPerPage = 20
	MaxPerPage     = 100
	// CountLimit is the row count above which GitLab stops counting: X-Total, X-Total-Pages and
	// the last link are left out.
	CountLimit = 10000
)

// Offset is an offset page request.
type Offset struct {
	Page    int
	PerPage int
}

// NewOffset returns a page request with GitLab's defaults and clamps applied: a page below 1
// is page 1, a per_page below 1 is the default, above the maximum is the maximum.
func NewOffset(page, perPage int) Offset {
	if page < 1 {
		page = 1
	}
	if perPage < 1 {
		perPage = DefaultPerPage
	}
	if perPage > MaxPerPage {
		perPage = MaxPerPage
	}
	return Offset{Page: page, PerPage: perPage}
}

// Limit is the number of rows to fetch.
func (o Offset) Limit() int { return o.PerPage }

// Skip is the number of rows to skip.
func (o Offset) Skip() int { return (o.Page - 1) * o.PerPage }

// BoundedTotal turns a count of at most CountLimit+1 rows into a total: the count, or -1 (not
// counted) above CountLimit.
func BoundedTotal(n int) int {
	if n > CountLimit {
		return -1
	}
	return n
}

// Page is the page request every List takes, its last argument but one: an offset page
// (Page, PerPage), or, when Keyset is set, a keyset page of PerPage rows continuing after the
// position Cursor names. Keyset pages are never counted; their continuation is Result.Next.
type Page struct {
	Offset
	// Keyset asks for a keyset page instead of an offset page.
	Keyset bool
	// Cursor is the position the client sent back, nil on the first page: the decoded `cursor`
	// of SQL lists, or {param: value} for lists continued by a named parameter (page_token).
	Cursor map[string]string
}

// OffsetPage is an offset page request with NewOffset's defaults and clamps.
func OffsetPage(page, perPage int) Page { return Page{Offset: NewOffset(page, perPage)} }

// KeysetAt is a keyset page request of perPage rows (defaults and clamps as NewOffset) after
// cursor (nil: the first page).
func KeysetAt(cursor map[string]string, perPage int) Page {
	return Page{Offset: NewOffset(1, perPage), Keyset: true, Cursor: cursor}
}

// Result is one page of rows. Total is -1 when it was not counted (above CountLimit, and on
// every keyset page).
type Result[T any] struct {
	Items []T
	Total int
	Page  Offset
	// Keyset marks a keyset page: REST writes Link rel="next" from Next instead of the offset
	// headers.
	Keyset bool
	// Next is the keyset continuation (query parameters) of the following page; empty on the
	// last page.
	Next map[string]string
}

// OffsetResult is an offset page of items out of total (-1: not counted).
func OffsetResult[T any](items []T, total int, page Offset) Result[T] {
	return Result[T]{Items: items, Total: total, Page: page}
}

// EncodeCursor turns a cursor into the opaque string GitLab clients pass back as `cursor`.
func EncodeCursor(values map[string]string) string {
	b, _ := json.Marshal(values)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor reverses EncodeCursor; ok is false for a malformed cursor.
func DecodeCursor(s string) (map[string]string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	var m map[string]string
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return m, true
}
