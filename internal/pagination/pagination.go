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

// Result is one page of rows with the total count. Total is -1 when it was not counted
// (above CountLimit).
type Result[T any] struct {
	Items []T
	Total int
	Page  Offset
	// Next is the keyset continuation for keyset pages; empty on the last page.
	Next map[string]string
}

// Keyset is a keyset page request: rows after the cursor in the given order.
type Keyset struct {
	OrderBy string
	Sort    string // asc or desc
	Cursor  map[string]string
	PerPage int
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
