package projects

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// The dynamic columns a single read adds to the project (and to its fork parent, the forks).
const (
	forksColumn  = "forks_total"
	sharesColumn = "shares_total"
)

// Get returns the project ref names (id or full path) with the View that presents it:
// 404 Project Not Found when actor cannot read it.
//
// Across the network (PostgreSQL), everything it needs is read side by side in one round of
// statements, each selecting through the reference: the project with its fork count and the
// caller's membership, its shares, its namespace's owner, its fork parent, and the namespace
// chain with the caller's memberships. Only shares that could raise the caller's level, and a
// fork parent's own visibility, cost further reads. In process (SQLite), where a statement
// costs its work rather than a round trip, primary-key lookups one after the other are cheaper
// than those subqueries (the recursive chain alone costs as much as three lookups).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *View, error) {
	if !db.Networked(s.client) || ent.TxFromContext(ctx) != nil {
		p, err := s.lookupDetail(ctx, ref)
		if err != nil {
			return nil, nil, err
		}
		return s.present(ctx, actor, p)
	}
	exact, fold, err := refPredicates(ref)
	if err != nil {
		return nil, nil, err
	}
	r, facts, err := s.readOne(ctx, actor, exact)
	if fold != nil && apperr.IsNotFound(err) {
		r, facts, err = s.readOne(ctx, actor, fold)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := facts.Resolve(r.p); err != nil {
		// The project moved while it was read: read it again the plain way.
		p, err := s.lookupDetail(ctx, strconv.Itoa(r.p.ID))
		if err != nil {
			return nil, nil, err
		}
		return s.present(ctx, actor, p)
	}
	r.ns = facts.Chain[0]
	p := r.assemble(true)
	v, err := s.viewOne(ctx, actor, p, facts)
	if err != nil {
		return nil, nil, err
	}
	return p, v, nil
}

// readOne reads the project where selects with its edges, fork counts and access facts: the
// project (with counts of its forks and shares, and the caller's membership, as columns), its
// namespace's owner and the namespace chain side by side; then, only for a fork or a shared
// project, the parent or the shares.
func (s *Service) readOne(ctx context.Context, actor *authz.Actor, where []predicate.Project) (*oneReads, *authz.AccessFacts, error) {
	c := db.ClientFrom(ctx, s.client)
	r := &oneReads{client: c, where: where}
	facts, readChain, accessColumns := s.policy.AccessReads(c, actor, where)
	projectColumns := func(s *sql.Selector) { withForksCount(s); withSharesCount(s); accessColumns(s) }
	err := db.Concurrently(ctx, s.client, r.readProject(projectColumns), r.readOwner, readChain)
	if err != nil {
		_, err = only(nil, err)
		return nil, nil, err
	}
	var edges []func(context.Context) error
	if r.p.ForkedFromID != nil {
		edges = append(edges, r.readParent(withForksCount))
	}
	if n, _ := db.IntValue(r.p.Value(sharesColumn)); n > 0 {
		edges = append(edges, r.readLinks)
	}
	if err := db.Concurrently(ctx, s.client, edges...); err != nil {
		return nil, nil, err
	}
	return r, facts, nil
}

// viewOne computes the View of p from the facts read with it, and refuses (404) a project the
// actor may not read.
func (s *Service) viewOne(ctx context.Context, actor *authz.Actor, p *ent.Project, f *authz.AccessFacts) (*View, error) {
	level, readable, err := s.policy.ProjectLevelFrom(ctx, actor, p, f)
	if err != nil {
		return nil, err
	}
	if !readable {
		return nil, apperr.NotFound("Project")
	}
	ns := p.Edges.Namespace
	v := newView(actor)
	v.levels[p.ID] = level
	v.fullNames[ns.ID] = chainName(f.Chain)
	v.forks[p.ID] = forksCount(p)
	if parent := p.Edges.ForkedFrom; parent != nil {
		v.forks[parent.ID] = forksCount(parent)
	}
	if !actor.IsAnonymous() {
		if f.ProjectMember != nil {
			v.projectMember[p.ID] = int(*f.ProjectMember)
		} else if ns.Kind == namespace.KindUser && ns.OwnerID != nil && *ns.OwnerID == actor.User.ID {
			// As loadMemberships: the owner of a personal namespace is its projects' Owner.
			v.projectMember[p.ID] = int(authz.Owner)
		}
		if ns.Kind != namespace.KindUser && len(f.GroupMember) > 0 {
			best := 0
			for _, l := range f.GroupMember {
				best = max(best, int(l))
			}
			v.groupMember[p.ID] = best
		}
	}
	parentLevel, group := s.policyFuncs(ctx, actor)
	rows := []*ent.Project{p}
	if err := s.loadRelated(rows, v, parentLevel, group); err != nil {
		return nil, err
	}
	s.inspect(ctx, rows, v)
	return v, nil
}

// chainName is the human name of the first namespace of chain with its ancestors
// ("Group / Subgroup"), chain running from the namespace up to the top.
func chainName(chain []*ent.Namespace) string {
	name := chain[0].Name
	for _, ns := range chain[1:] {
		name = ns.Name + " / " + name
	}
	return name
}

// withForksCount adds the number of live forks of each project row.
func withForksCount(s *sql.Selector) {
	f := sql.Table(project.Table).As("forks")
	s.AppendSelectExprAs(sql.Select(sql.Count("*")).From(f).Where(sql.And(
		sql.ColumnsEQ(f.C(project.FieldForkedFromID), s.C(project.FieldID)),
		sql.EQ(f.C(project.FieldPendingDelete), false),
	)), forksColumn)
}

// withSharesCount adds the number of the project rows' shares with groups.
func withSharesCount(s *sql.Selector) {
	l := sql.Table(projectgrouplink.Table).As("shares")
	s.AppendSelectExprAs(sql.Select(sql.Count("*")).From(l).
		Where(sql.ColumnsEQ(l.C(projectgrouplink.FieldProjectID), s.C(project.FieldID))), sharesColumn)
}

// forksCount reads the count withForksCount added (0 when the row was read without it).
func forksCount(p *ent.Project) int {
	n, _ := db.IntValue(p.Value(forksColumn))
	return n
}
