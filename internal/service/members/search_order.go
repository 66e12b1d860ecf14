package members

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"anvil/ent"
	"anvil/internal/pagination"
)

// With query=, GitLab orders members as its user search does: an exact match of the public
// email, then of the username, then of the name, then everyone else; by name within each, and
// (here) by membership id between equal names so that pages are stable.

// searchRank is the rank of u for the search term (0 best, 3 no exact match).
func searchRank(u *ent.User, term string) int {
	t := strings.ToLower(term)
	switch {
	case u.PublicEmail != "" && strings.ToLower(u.PublicEmail) == t:
		return 0
	case strings.ToLower(u.Username) == t:
		return 1
	case strings.ToLower(u.Name) == t:
		return 2
	}
	return 3
}

// compareSearch orders entries for the search term.
func compareSearch(term string) func(a, b *Entry) int {
	return func(a, b *Entry) int {
		return cmp.Or(cmp.Compare(searchRank(a.User, term), searchRank(b.User, term)),
			cmp.Compare(a.User.Name, b.User.Name), cmp.Compare(a.Member.ID, b.Member.ID))
	}
}

// searchPage returns one page of the members q selects (filtered by the search term) in the
// search order. The rank is computed here rather than in SQL: ent drops the arguments of an
// ORDER BY expression, and a search's matches are few enough to order in memory.
func searchPage(ctx context.Context, q *ent.MemberQuery, term string, page pagination.Offset) ([]*ent.Member, error) {
	rows, err := q.WithUser().All(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b *ent.Member) int {
		return compareSearch(term)(&Entry{Member: a, User: a.Edges.User}, &Entry{Member: b, User: b.Edges.User})
	})
	start := min(page.Skip(), len(rows))
	end := min(start+page.Limit(), len(rows))
	return rows[start:end], nil
}
