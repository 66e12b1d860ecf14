package projects

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// lookupDetail finds the project a reference names with the edges withDetail loads.
func (s *Service) lookupDetail(ctx context.Context, ref string) (*ent.Project, error) {
	return s.lookupLoaded(ctx, ref, true)
}

// lookupAccess finds the project a reference names with what deciding access reads: its
// namespace (and, across the network, its shares with groups).
func (s *Service) lookupAccess(ctx context.Context, ref string) (*ent.Project, error) {
	return s.lookupLoaded(ctx, ref, false)
}

// lookupLoaded finds the project a reference names with its edges (all of withDetail's when
// detail is set): through ent's eager loading in process (SQLite), where it is the cheapest, and
// reading the edges side by side across the network (PostgreSQL), where round trips cost more
// than statements.
func (s *Service) lookupLoaded(ctx context.Context, ref string, detail bool) (*ent.Project, error) {
	eager := func(q *ent.ProjectQuery) *ent.ProjectQuery { return q.WithNamespace() }
	if detail {
		eager = withDetail
	}
	if !db.Networked(s.client) || ent.TxFromContext(ctx) != nil {
		return s.lookup(ctx, ref, eager)
	}
	exact, fold, err := refPredicates(ref)
	if err != nil {
		return nil, err
	}
	p, err := s.loadOne(ctx, exact, detail)
	if fold == nil || !apperr.IsNotFound(err) {
		return p, err
	}
	return s.lookup(ctx, ref, eager)
}

// loadOne loads the one project where selects with its namespace and its group shares (with
// the groups) and, when detail is set, the rest of what withDetail loads (the namespace's owner,
// the fork parent with its namespace). ent loads eager edges one query after the other; here the
// row and each edge (selected through the project's own predicates) are read side by side, so
// on a database across the network a project costs one round trip instead of up to four. where
// must select at most one project.
func (s *Service) loadOne(ctx context.Context, where []predicate.Project, detail bool) (*ent.Project, error) {
	c := db.ClientFrom(ctx, s.client)
	var (
		p      *ent.Project
		ns     *ent.Namespace
		owner  *ent.User
		links  []*ent.ProjectGroupLink
		parent *ent.Project
	)
	reads := []func(context.Context) error{
		func(ctx context.Context) (err error) {
			p, err = c.Project.Query().Where(where...).Only(ctx)
			return err
		},
		func(ctx context.Context) (err error) {
			ns, err = c.Namespace.Query().Where(namespaceOf(where)).Only(ctx)
			return err
		},
		func(ctx context.Context) (err error) {
			links, err = c.ProjectGroupLink.Query().
				Where(predicate.ProjectGroupLink(db.In(projectgrouplink.FieldProjectID, project.Table, project.FieldID, selectors(where)...))).
				WithGroup().All(ctx)
			return err
		},
	}
	if detail {
		reads = append(reads,
			func(ctx context.Context) (err error) {
				q := c.User.Query().Where(predicate.User(db.In(user.FieldID, namespace.Table, namespace.FieldOwnerID, namespaceOf(where))))
				selectUserBasic(q)
				owner, err = optional(q.Only(ctx))
				return err
			},
			func(ctx context.Context) (err error) {
				parent, err = optional(c.Project.Query().
					Where(predicate.Project(db.In(project.FieldID, project.Table, project.FieldForkedFromID, selectors(where)...))).
					WithNamespace().Only(ctx))
				return err
			})
	}
	err := db.Concurrently(ctx, s.client, reads...)
	if err != nil {
		return only(nil, err)
	}
	if links == nil {
		links = []*ent.ProjectGroupLink{} // loaded, none: as ent's eager loading leaves it
	}
	p.Edges.Namespace, p.Edges.GroupLinks = ns, links
	if detail {
		ns.Edges.Owner, p.Edges.ForkedFrom = owner, parent
	}
	return p, nil
}

// namespaceOf selects the namespace of the projects where selects.
func namespaceOf(where []predicate.Project) predicate.Namespace {
	return predicate.Namespace(db.In(namespace.FieldID, project.Table, project.FieldNamespaceID, selectors(where)...))
}

// selectors turns project predicates into the plain selector functions db.In takes.
func selectors(where []predicate.Project) []func(*sql.Selector) {
	out := make([]func(*sql.Selector), len(where))
	for i, w := range where {
		out[i] = w
	}
	return out
}

// optional turns a missing row into nil.
func optional[T any](v *T, err error) (*T, error) {
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return v, err
}
