package epics

import (
	"fmt"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/epic"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/filter"

	"entgo.io/ent/dialect/sql"
)

// The columns Load selects an epic's upvotes and downvotes (thumbsup and thumbsdown awards) into.
const (
	upvotesColumn   = "upvotes"
	downvotesColumn = "downvotes"
)

// awardCount is the number of awards named name on the selector's epic, a correlated count over
// the (awardable_type, awardable_id, name) index, as the issues' (names are constants).
func awardCount(s *sql.Selector, name string) string {
	return fmt.Sprintf("(SELECT COUNT(*) FROM %s WHERE %s = 'Epic' AND %s = %s AND %s = '%s')",
		awardemoji.Table, awardemoji.FieldAwardableType, awardemoji.FieldAwardableID, s.C(epic.FieldID),
		awardemoji.FieldName, name)
}

// withVotes selects each epic's upvotes and downvotes beside its columns.
func withVotes(q *ent.EpicQuery) *ent.EpicQuery {
	q.Modify(func(s *sql.Selector) {
		s.AppendSelectExprAs(sql.Raw(awardCount(s, "thumbsup")), upvotesColumn).
			AppendSelectExprAs(sql.Raw(awardCount(s, "thumbsdown")), downvotesColumn)
	})
	return q
}

// Votes returns the epic's upvotes and downvotes as Load selected them; 0 for an epic read
// otherwise.
func Votes(e *ent.Epic) (up, down int) {
	return selectedInt(e, upvotesColumn), selectedInt(e, downvotesColumn)
}

func selectedInt(e *ent.Epic, column string) int {
	v, err := e.Value(column)
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

// myReaction is the my_reaction_emoji filter: the epics the actor awarded an emoji of those
// names (None: none at all, Any: some), as the issues' filter.
func myReaction(actor *authz.Actor) filter.Relation[string, predicate.Epic] {
	awarded := func(s *sql.Selector, names []string) *sql.Selector {
		t := sql.Table(awardemoji.Table)
		preds := []*sql.Predicate{
			sql.EQ(t.C(awardemoji.FieldAwardableType), "Epic"),
			sql.ColumnsEQ(t.C(awardemoji.FieldAwardableID), s.C(epic.FieldID)),
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
	return filter.Relation[string, predicate.Epic]{
		In: func(names []string) predicate.Epic {
			return func(s *sql.Selector) { s.Where(sql.Exists(awarded(s, names))) }
		},
		Empty: func() predicate.Epic {
			return func(s *sql.Selector) { s.Where(sql.NotExists(awarded(s, nil))) }
		},
	}
}
