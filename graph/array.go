package graph

import (
	"anvil/ent"
)

// window is the part of an in-memory list one connection page shows, as graphql-ruby's array
// connections page GitLab's lists of tree entries and blobs: cursors are list positions.
type window struct {
	start, end       int
	hasNext, hasPrev bool
}

// arrayWindow applies after/before (positions, exclusive) and first/last (GitLab's page size:
// at most 100, 100 when neither is given) to a list of n items.
func arrayWindow(n int, after, before *ent.Cursor, first, last *int) (window, error) {
	if (first != nil && *first < 0) || (last != nil && *last < 0) {
		return window{}, badInput("first and last must be non-negative")
	}
	first, last = page(first, last)
	lo, hi := 0, n
	if after != nil {
		lo = min(max(after.ID+1, 0), n)
	}
	if before != nil {
		hi = max(min(before.ID, n), lo)
	}
	w := window{start: lo, end: hi}
	if first != nil {
		w.end = min(w.end, w.start+*first)
	}
	if last != nil {
		w.start = max(w.start, w.end-*last)
	}
	w.hasNext, w.hasPrev = w.end < hi, w.start > lo
	return w, nil
}

// pageInfo is the page info of a window.
func (w window) pageInfo() *ent.PageInfo {
	info := &ent.PageInfo{HasNextPage: w.hasNext, HasPreviousPage: w.hasPrev}
	if w.end > w.start {
		start, end := cursorAt(w.start), cursorAt(w.end-1)
		info.StartCursor, info.EndCursor = &start, &end
	}
	return info
}

// cursorAt is the cursor of the item at position i.
func cursorAt(i int) ent.Cursor { return ent.Cursor{ID: i} }
