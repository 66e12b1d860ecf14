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
		inner := s.Clone()
		inner.Select(inner.C("id")).Limit(limit)
		outer := sql.Dialect(s.Dialect()).Select().From(inner.As("bounded"))
		*s = *outer
		return "COUNT(*)"
	}
}
