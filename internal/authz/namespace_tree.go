package authz

import (
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"

	"entgo.io/ent/dialect/sql"
)

// Walking the namespace tree through parent_id in recursive queries: each step is an index
// lookup, where matching full paths by prefix (LIKE 'a/%') cannot use an index on either
// database (SQLite's LIKE folds case; PostgreSQL's needs a pattern-ops index) and scans every
// namespace.

// namespaceChain selects the ids of the namespace of the projects where selects and of its
// ancestors, walking parent_id in a recursive query (primary-key lookups, one per level).
func namespaceChain(where []predicate.Project) *sql.Selector {
	chain := sql.Table("namespace_chain")
	start := sql.Select(project.FieldNamespaceID).From(sql.Table(project.Table))
	for _, w := range where {
		w(start)
	}
	ns := sql.Table(namespace.Table)
	step := sql.Select(ns.C(namespace.FieldParentID)).From(ns).
		Join(chain).On(ns.C(namespace.FieldID), chain.C("id")).
		Where(sql.NotNull(ns.C(namespace.FieldParentID)))
	with := sql.WithRecursive("namespace_chain", "id").As(start.UnionAll(step))
	return sql.Select(chain.C("id")).From(chain).Prefix(with)
}

// Subtree selects the namespaces with the given full paths and all their descendants.
func Subtree(fullPaths ...string) predicate.Namespace {
	return inNamespaceTree(func() *sql.Selector { return namespaceTree(fullPaths, true) })
}

// Descendants selects the descendants of the namespace at fullPath, without it.
func Descendants(fullPath string) predicate.Namespace {
	return inNamespaceTree(func() *sql.Selector { return namespaceTree([]string{fullPath}, false) })
}

// namespaceTree selects the ids of the descendants of the namespaces with the full paths
// given, and of those namespaces themselves when withRoots is set.
func namespaceTree(fullPaths []string, withRoots bool) *sql.Selector {
	tree := sql.Table("namespace_tree")
	ns := sql.Table(namespace.Table)
	roots := sql.Select(ns.C(namespace.FieldID)).From(ns).Where(sql.In(ns.C(namespace.FieldFullPath), anySlice(fullPaths)...))
	start := roots
	if !withRoots {
		children := sql.Table(namespace.Table).As("children")
		start = sql.Select(children.C(namespace.FieldID)).From(children).Where(sql.In(children.C(namespace.FieldParentID), roots))
	}
	child := sql.Table(namespace.Table).As("child")
	step := sql.Select(child.C(namespace.FieldID)).From(child).
		Join(tree).On(child.C(namespace.FieldParentID), tree.C("id"))
	with := sql.WithRecursive("namespace_tree", "id").As(start.UnionAll(step))
	return sql.Select(tree.C("id")).From(tree).Prefix(with)
}

// inNamespaceTree is a namespace predicate: the namespace's id is one the query build makes
// selects. The query is built anew each time the predicate is applied: ent's builders write
// into buffers of their own, so one applied twice (a page and its count) would repeat its WITH.
func inNamespaceTree(build func() *sql.Selector) predicate.Namespace {
	return func(s *sql.Selector) { s.Where(sql.In(s.C(namespace.FieldID), build())) }
}

func anySlice(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}
