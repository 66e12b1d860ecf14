package issues

import (
	"fmt"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/issue"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/filter"

	"entgo.io/ent/dialect/sql"
)

// The voting emoji (GitLab's upvotes and downvotes) and the names of the columns Load selects
// their counts into.
const (
	thumbsUp        = "thumbsup"
	thumbsDown      = "thumbsdown"
	upvotesColumn   = "upvotes"
	downvotesColumn = "downvotes"
)

// awardCount is the number of awards named name on the selector's issue: a correlated count
// over the (awardable_type, awardable_id, name) index, so a page's votes come with the page in
// its own statement, and order_by=popularity sorts by the same expression. The names are
// constants of this package, never input.
func awardCount(s *sql.Selector, name string) string {
	return fmt.Sprintf("(SELECT COUNT(*) FROM %s WHERE %s = 'Issue' AND %s = %s AND %s = '%s')",
		awardemoji.Table, awardemoji.FieldAwardableType, awardemoji.FieldAwardableID, s.C(issue.FieldID),
		awardemoji.FieldName, name)
}

// withVotes selects each issue's upvotes and downvotes beside its columns.
func withVotes(q *ent.IssueQuery) *ent.IssueQuery {
	q.Modify(func(s *sql.Selector) {
		s.AppendSelectExprAs(sql.Raw(awardCount(s, thumbsUp)), upvotesColumn).
			AppendSelectExprAs(sql.Raw(awardCount(s, thumbsDown)), downvotesColumn)
	})
	return q
}

// Votes returns the issue's upvotes and downvotes (thumbsup and thumbsdown awards) as Load
// selected them; 0 for an issue read otherwise.
func Votes(is *ent.Issue) (up, down int) {
	return selectedInt(is, upvotesColumn), selectedInt(is, downvotesColumn)
}

func selectedInt(is *ent.Issue, column string) int {
	v, err := is.Value(column)
	if err != nil {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	case []byte:
		var i int
		_, _ = fmt.Sscan(string(n), &i)
		return i
	}
	return 0
}

// myReaction is the my_reaction_emoji filter: the issues the actor awarded an emoji of those
// names (None: none at all, Any: some); not[my_reaction_emoji] the issues the actor did not
// award that emoji. Anonymous callers have no reactions: GitLab ignores the filter for them.
func myReaction(actor *authz.Actor) filter.Relation[string, predicate.Issue] {
	awarded := func(s *sql.Selector, names []string) *sql.Selector {
		t := sql.Table(awardemoji.Table)
		preds := []*sql.Predicate{
			sql.EQ(t.C(awardemoji.FieldAwardableType), "Issue"),
			sql.ColumnsEQ(t.C(awardemoji.FieldAwardableID), s.C(issue.FieldID)),
			sql.EQ(t.C(awardemoji.FieldUserID), actor.UserID()),
		}
		if names != nil {
			vals := make([]any, len(names))
			for i, n := range names {
				vals[i] = n
			}
			preds = append(preds, sql.In(t.C(awardemoji.FieldName), vals...))
		}
		return sql.Select(t.C(awardemoji.FieldID)).From(t).Where(sql.And(preds...))
	}
	return filter.Relation[string, predicate.Issue]{
		In: func(names []string) predicate.Issue {
			return func(s *sql.Selector) { s.Where(sql.Exists(awarded(s, names))) }
		},
		Empty: func() predicate.Issue {
			return func(s *sql.Selector) { s.Where(sql.NotExists(awarded(s, nil))) }
		},
	}
}
