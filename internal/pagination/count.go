package pagination

import (
	"entgo.io/ent/dialect/sql"
)

// CountAtMost is an ent aggregate that counts a query's rows inside the database, reading at
// most limit of them: it turns the finished query (predicates and all) into
// SELECT COUNT(*) FROM (SELECT id … LIMIT limit). Used as q.Aggregate(CountAtMost(n)).Int(ctx),
// it gives GitLab's bounded totals without moving 10,001 ids through the driver. ent runs
// aggregate functions after it has applied predicates and limits, which is what makes the
// rewrite possible; it is the one place that relies on that.
func CountAtMost(limit int) func(*sql.Selector) string {
	return func(s *sql.Selector) string {
		// The finished query itself moves inside, and s becomes the outer query. A copy made
		// with Selector.Clone would not do: ent's Clone drops the operator of a comparison that
		// is the whole WHERE clause ("created_at >= ?" became "created_at?").
		inner := new(sql.Selector)
		*inner = *s
		inner.Select(inner.C("id")).Limit(limit)
		outer := sql.Dialect(s.Dialect()).Select().From(inner.As("bounded"))
		*s = *outer
		return "COUNT(*)"
	}
}
