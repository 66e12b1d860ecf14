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
	r := oneReads{client: db.ClientFrom(ctx, s.client), where: where}
	reads := []func(context.Context) error{r.readProject(nil), r.readNamespace, r.readLinks}
	if detail {
		reads = append(reads, r.readOwner, r.readParent(nil))
	}
	if err := db.Concurrently(ctx, s.client, reads...); err != nil {
		return only(nil, err)
	}
	return r.assemble(detail), nil
}

// oneReads are the reads of one project (selected by where) and its edges, each selecting
// through the project's predicates so that they can run side by side.
type oneReads struct {
	client *ent.Client
	where  []predicate.Project

	p, parent *ent.Project
	ns        *ent.Namespace
	owner     *ent.User
	links     []*ent.ProjectGroupLink
}

func (r *oneReads) readProject(modify func(*sql.Selector)) func(context.Context) error {
	return func(ctx context.Context) (err error) {
		q := r.client.Project.Query().Where(r.where...)
		if modify != nil {
			q.Modify(modify)
		}
		r.p, err = q.Only(ctx)
		return err
	}
}

func (r *oneReads) readNamespace(ctx context.Context) (err error) {
	r.ns, err = r.client.Namespace.Query().Where(namespaceOf(r.where)).Only(ctx)
	return err
}

func (r *oneReads) readLinks(ctx context.Context) (err error) {
	r.links, err = r.client.ProjectGroupLink.Query().
		Where(predicate.ProjectGroupLink(db.In(projectgrouplink.FieldProjectID, project.Table, project.FieldID, selectors(r.where)...))).
		WithGroup().All(ctx)
	return err
}

// owner reads the owner of the project's namespace (none for a group), in the UserBasic shape.
func (r *oneReads) readOwner(ctx context.Context) (err error) {
	q := r.client.User.Query().Where(predicate.User(db.In(user.FieldID, namespace.Table, namespace.FieldOwnerID, namespaceOf(r.where))))
	selectUserBasic(q)
	r.owner, err = optional(q.Only(ctx))
	return err
}

// parent reads the fork parent with its namespace (none when the project is no fork).
func (r *oneReads) readParent(modify func(*sql.Selector)) func(context.Context) error {
	return func(ctx context.Context) (err error) {
		q := r.client.Project.Query().
			Where(predicate.Project(db.In(project.FieldID, project.Table, project.FieldForkedFromID, selectors(r.where)...))).
			WithNamespace()
		if modify != nil {
			q.Modify(modify)
		}
		r.parent, err = optional(q.Only(ctx))
		return err
	}
}

// assemble hangs the edges read on the project, as ent's eager loading would.
func (r *oneReads) assemble(detail bool) *ent.Project {
	if r.links == nil {
		r.links = []*ent.ProjectGroupLink{} // loaded, none: as ent's eager loading leaves it
	}
	r.p.Edges.Namespace, r.p.Edges.GroupLinks = r.ns, r.links
	if detail {
		r.ns.Edges.Owner, r.p.Edges.ForkedFrom = r.owner, r.parent
	}
	return r.p
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
