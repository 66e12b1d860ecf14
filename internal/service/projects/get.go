package projects

import (
	"context"
	"errors"
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
// Across the network (PostgreSQL) it reads in one round of statements side by side, each
// selecting through the reference (readOne), and decides access from the facts read with it.
// In process (SQLite), where a statement costs its work rather than a round trip, primary-key
// lookups one after the other are cheaper than those subqueries (the recursive chain alone
// costs as much as three lookups).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *View, error) {
	if !s.readsSideBySide(ctx) {
		p, err := s.lookupDetail(ctx, ref)
		if err != nil {
			return nil, nil, err
		}
		return s.present(ctx, actor, p)
	}
	r, facts, err := s.readResolved(ctx, actor, ref, true)
	if errors.Is(err, errMoved) {
		p, err := s.lookupDetail(ctx, strconv.Itoa(r.p.ID))
		if err != nil {
			return nil, nil, err
		}
		return s.present(ctx, actor, p)
	}
	if err != nil {
		return nil, nil, err
	}
	p := r.assemble(true)
	v, err := s.viewOne(ctx, actor, p, facts)
	if err != nil {
		return nil, nil, err
	}
	return p, v, nil
}

// LookupLevel finds the project ref names (with its namespace and shares, as Lookup) and the
// actor's level in it, and whether the actor may read it, without refusing anything: callers
// that check more than reading (a repository's code) decide from the level in one go.
func (s *Service) LookupLevel(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, authz.Level, bool, error) {
	if s.readsSideBySide(ctx) {
		r, facts, err := s.readResolved(ctx, actor, ref, false)
		switch {
		case err == nil:
			p := r.assemble(false)
			level, readable, err := s.policy.ProjectLevelFrom(ctx, actor, p, facts)
			return p, level, readable, err
		case errors.Is(err, errMoved):
			ref = strconv.Itoa(r.p.ID)
		default:
			return nil, authz.NoAccess, false, err
		}
	}
	p, err := s.Lookup(ctx, ref)
	if err != nil {
		return nil, authz.NoAccess, false, err
	}
	level, readable, err := s.policy.ProjectLevel(ctx, actor, p)
	return p, level, readable, err
}

// readsSideBySide reports whether single reads go through readOne: across the network and
// outside transactions (where the reads would run one after the other anyway).
func (s *Service) readsSideBySide(ctx context.Context) bool {
	return db.Networked(s.client) && ent.TxFromContext(ctx) == nil
}

// errMoved reports a project that moved while it was read (its namespace chain does not lead
// from its namespace to the top): the caller reads it again the plain way.
var errMoved = errors.New("project moved while it was read")

// readResolved reads the project ref names through readOne (by the exact reference, then
// case-insensitively) and resolves the access facts; the namespace edge comes from the chain.
func (s *Service) readResolved(ctx context.Context, actor *authz.Actor, ref string, detail bool) (*oneReads, *authz.AccessFacts, error) {
	exact, fold, err := refPredicates(ref)
	if err != nil {
		return nil, nil, err
	}
	r, facts, err := s.readOne(ctx, actor, exact, detail)
	if fold != nil && apperr.IsNotFound(err) {
		r, facts, err = s.readOne(ctx, actor, fold, detail)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := facts.Resolve(r.p); err != nil {
		return r, nil, errMoved
	}
	r.ns = facts.Chain[0]
	return r, facts, nil
}

// readOne reads the project where selects with the access facts: the project (with a count of
// its shares and the caller's membership as columns) and the namespace chain side by side, and
// when detail is set the namespace's owner too, with fork counts; then, only for a shared
// project (or, with detail, a fork), the shares (the parent).
func (s *Service) readOne(ctx context.Context, actor *authz.Actor, where []predicate.Project, detail bool) (*oneReads, *authz.AccessFacts, error) {
	c := db.ClientFrom(ctx, s.client)
	r := &oneReads{client: c, where: where}
	facts, readChain, accessColumns := s.policy.AccessReads(c, actor, where)
	projectColumns := func(s *sql.Selector) {
		withSharesCount(s)
		accessColumns(s)
		if detail {
			withForksCount(s)
		}
	}
	reads := []func(context.Context) error{r.readProject(projectColumns), readChain}
	if detail {
		reads = append(reads, r.readOwner)
	}
	if err := db.Concurrently(ctx, s.client, reads...); err != nil {
		_, err = only(nil, err)
		return nil, nil, err
	}
	var edges []func(context.Context) error
	if detail && r.p.ForkedFromID != nil {
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
		} else if authz.OwnsPersonalNamespace(ns, actor.User.ID) {
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
