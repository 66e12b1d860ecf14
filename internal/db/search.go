package db

import (
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// The one place where a client's search term becomes a substring or prefix match. Every finder
// uses these instead of ent's generated …ContainsFold / …HasPrefixFold predicates.
//
// ent builds those as LIKE patterns, and SQLite refuses a LIKE pattern longer than 50,000 bytes
// ("LIKE or GLOB pattern too complex"): a search of 49,999 characters answered 500 on every list
// route with `search`. On SQLite the match is therefore a plain position test on the lowered
// column, INSTR(LOWER(col), term) (no pattern, no escaping, no length limit: the same rows,
// as SQLite's LIKE folds ASCII only and LOWER does too). PostgreSQL has no pattern limit and
// keeps ent's ILIKE (as GitLab's own search does).

// ContainsFold matches rows whose column contains term, case-insensitively.
func ContainsFold(column, term string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		s.Where(containsFold(s.C(column), term))
	}
}

// containsFold is the predicate for a qualified column. The dialect is read when the statement
// is built: a selector nested in another (db.In) learns it only then.
func containsFold(col, term string) *sql.Predicate {
	lowered := strings.ToLower(term)
	return sql.P(func(b *sql.Builder) {
		if b.Dialect() == dialect.SQLite {
			b.WriteString("INSTR(LOWER(").Ident(col).WriteString("), ").Arg(lowered).WriteString(") > 0")
			return
		}
		// PostgreSQL's default LIKE escape is the backslash.
		b.Ident(col).WriteString(" ILIKE ").Arg("%" + likeEscaper.Replace(lowered) + "%")
	})
}

// likeEscaper escapes LIKE's wildcards and its escape character.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// MatchRank writes, for an ORDER BY expression in dialect dia, a condition that col (a qualified
// column, not lowered) equals (exact), starts with (prefix) or contains the lowered term.
func MatchRank(b *sql.Builder, dia, col, lowered string, kind MatchKind) {
	lowerCol := func() { b.WriteString("LOWER(").Ident(col).WriteString(")") }
	switch {
	case kind == Exact:
		lowerCol()
		b.WriteString(" = ").Arg(lowered)
	case dia == dialect.SQLite:
		b.WriteString("INSTR(")
		lowerCol()
		b.WriteString(", ").Arg(lowered)
		if kind == Prefix {
			b.WriteString(") = 1")
		} else {
			b.WriteString(") > 0")
		}
	default:
		b.WriteString("STRPOS(")
		lowerCol()
		b.WriteString(", ").Arg(lowered)
		if kind == Prefix {
			b.WriteString(") = 1")
		} else {
			b.WriteString(") > 0")
		}
	}
}

// MatchKind is how MatchRank compares a column with a term.
type MatchKind int

// The kinds of match MatchRank writes.
const (
	Exact MatchKind = iota
	Prefix
	Substring
)
