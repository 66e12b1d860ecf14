package authz

import (
	"strings"

	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// visibilityIn is "column IN (values)" for the visibility predicates of listings. On SQLite the
// column is written with a unary plus, SQLite's documented way to keep a term from driving an
// index: visibility has two or three values, so an index on it selects most of the table, and
// when the planner used it (a multi-index OR with the membership terms) it then sorted every
// visible row for a page of 100 — 400 ms at 100,000 projects. Without it SQLite walks the
// ordering index and stops after the page. PostgreSQL plans this well and gets the plain form.
func visibilityIn(s *sql.Selector, column string, values []string) {
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	col := s.C(column)
	if s.Dialect() == dialect.SQLite {
		s.Where(sql.ExprP("+"+col+" IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ")+")", args...))
		return
	}
	s.Where(sql.In(col, args...))
}

// projectVisibility keeps projects with one of the visibilities.
func projectVisibility(values ...project.Visibility) predicate.Project {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = string(v)
	}
	return func(s *sql.Selector) { visibilityIn(s, project.FieldVisibility, vs) }
}

// namespaceVisibility keeps namespaces with one of the visibilities.
func namespaceVisibility(values ...namespace.Visibility) predicate.Namespace {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = string(v)
	}
	return func(s *sql.Selector) { visibilityIn(s, namespace.FieldVisibility, vs) }
}

// OpenProjects selects the projects visibility alone shows the actor: public, and internal for
// signed-in users who are not external.
func OpenProjects(a *Actor) predicate.Project {
	if a.IsAnonymous() || a.IsExternal() {
		return projectVisibility(project.VisibilityPublic)
	}
	return projectVisibility(project.VisibilityPublic, project.VisibilityInternal)
}

// OpenGroups is OpenProjects for groups.
func OpenGroups(a *Actor) predicate.Namespace {
	if a.IsAnonymous() || a.IsExternal() {
		return namespaceVisibility(namespace.VisibilityPublic)
	}
	return namespaceVisibility(namespace.VisibilityPublic, namespace.VisibilityInternal)
}
