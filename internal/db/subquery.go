package db

import "entgo.io/ent/dialect/sql"

// In is a predicate on any ent query: the row's column is one of the values of selectColumn in
// the rows of table that where selects (where: that table's ent predicates).
//
// ent's Has…With edge predicates are correlated EXISTS subqueries. PostgreSQL turns those into
// joins, but SQLite runs them once per row of the outer table: a scan of every project to find
// one by its namespace's path. An IN over an uncorrelated subquery is evaluated once and then
// answered by index on both databases.
func In(column, table, selectColumn string, where ...func(*sql.Selector)) func(*sql.Selector) {
	return func(s *sql.Selector) {
		t := sql.Table(table)
		inner := sql.Select(t.C(selectColumn)).From(t)
		for _, w := range where {
			w(inner)
		}
		s.Where(sql.In(s.C(column), inner))
	}
}
