package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/pagination"

	"entgo.io/ent/dialect/sql"
)

// smallListMax is the most merge requests a list may match for smallPage to answer it.
const smallListMax = 1000

// smallPage reads the page's ids and the list's total in one statement when q matches at most
// smallListMax merge requests; ok is false otherwise (or when the page is past the end, which
// leaves the total unknown), and the list is read as a bounded count and an id page.
//
// The statement reads the matches without an order, at most smallListMax + 1 of them, in a
// subquery (a LIMIT keeps both databases from merging it into the outer query), and the outer
// query counts them (a window over all of them) and sorts them for the page. Planned on its
// own, the subquery starts from the narrowest filter: two labels' 500 shared merge requests
// at 100,000. An id page in the list's order, with a LIMIT of 20, was instead planned by
// PostgreSQL as a walk of the project's opened merge requests newest first, probing each
// one's labels, until 20 matched: 3,860 merge requests and 13,276 buffers against 1,590
// (docs/PERFORMANCE.md, "Merge request lists"). And the count and the page, two statements
// that each found the same matches, are one.
func smallPage(ctx context.Context, q *ent.MergeRequestQuery, o Order, page pagination.Offset) (ids []int, total int, ok bool, err error) {
	var rows []struct {
		ID    int `json:"id"`
		Total int `json:"total"`
	}
	err = q.Clone().Aggregate(
		func(s *sql.Selector) string {
			matches := new(sql.Selector)
			*matches = *s // the finished query moves inside, as in pagination.CountAtMost
			matches.Limit(smallListMax + 1)
			outer := sql.Dialect(s.Dialect()).Select().From(matches.As(mergerequest.Table))
			for _, by := range orderBy(o) {
				by(outer)
			}
			outer.Offset(page.Skip()).Limit(page.Limit())
			*s = *outer
			return s.C(mergerequest.FieldID)
		},
		func(*sql.Selector) string { return "COUNT(*) OVER () AS total" },
	).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, false, err
	}
	if len(rows) == 0 {
		return nil, 0, page.Skip() == 0, nil
	}
	if rows[0].Total > smallListMax {
		return nil, 0, false, nil
	}
	ids = make([]int, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids, rows[0].Total, true, nil
}
