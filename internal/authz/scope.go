package authz

import (
	"context"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/db"
)

// Scope is what a user reaches through memberships: the namespaces and projects where the user's
// effective level is at least the level asked for.
type Scope struct {
	GroupLevels   map[int]Level // namespace id -> effective level (inherited and shared)
	ProjectLevels map[int]Level // project id -> level from direct membership or project shares
	// ReadableGroupPaths are the full paths of groups readable because the user belongs to them,
	// to one of their descendants, or to a project inside them.
	ReadableGroupPaths map[string]bool
}

// GroupIDs returns the namespaces where the level is at least min.
func (s *Scope) GroupIDs(minLevel Level) []int {
	ids := make([]int, 0, len(s.GroupLevels))
	for id, l := range s.GroupLevels {
		if l >= minLevel {
			ids = append(ids, id)
		}
	}
	return ids
}

// ProjectIDs returns the projects where the direct or shared level is at least min.
func (s *Scope) ProjectIDs(minLevel Level) []int {
	ids := make([]int, 0, len(s.ProjectLevels))
	for id, l := range s.ProjectLevels {
		if l >= minLevel {
			ids = append(ids, id)
		}
	}
	return ids
}

// withDescendants returns, for each namespace and its level, the namespace and its descendants.
func (p *Policy) withDescendants(ctx context.Context, levels map[string]Level, into map[int]Level, paths map[int]string) error {
	if len(levels) == 0 {
		return nil
	}
	roots := make([]string, 0, len(levels))
	for path := range levels {
		roots = append(roots, path)
	}
	rows, err := p.db(ctx).Namespace.Query().Where(Subtree(roots...)).
		Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
	if err != nil {
		return err
	}
	for _, ns := range rows {
		paths[ns.ID] = ns.FullPath
		for _, anc := range Ancestors(ns.FullPath) {
			if l, ok := levels[anc]; ok && l > into[ns.ID] {
				into[ns.ID] = l
			}
		}
	}
	return nil
}

// Scope computes the user's reach. It is empty for anonymous actors.
func (p *Policy) Scope(ctx context.Context, a *Actor, _ Level) (*Scope, error) {
	s := &Scope{GroupLevels: map[int]Level{}, ProjectLevels: map[int]Level{}, ReadableGroupPaths: map[string]bool{}}
	if a.IsAnonymous() {
		return s, nil
	}
	uid := a.User.ID
	// The user's memberships of groups and of projects in one query, and the personal
	// namespaces beside it.
	var memberships []*ent.Member
	var own []*ent.Namespace
	err := db.Concurrently(ctx, p.db(ctx),
		func(ctx context.Context) (err error) {
			memberships, err = p.db(ctx).Member.Query().
				Where(member.UserID(uid), activeMembership(), member.State("active")).
				WithNamespace(func(q *ent.NamespaceQuery) { q.Select(namespace.FieldID, namespace.FieldFullPath) }).
				All(ctx)
			return err
		},
		func(ctx context.Context) (err error) {
			own, err = p.db(ctx).Namespace.Query().Where(namespace.OwnerID(uid), namespace.KindEQ(namespace.KindUser)).
				Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
			return err
		})
	if err != nil {
		return nil, err
	}
	byPath := map[string]Level{}
	for _, m := range memberships {
		if m.ProjectID != nil {
			s.ProjectLevels[*m.ProjectID] = max(s.ProjectLevels[*m.ProjectID], Level(m.AccessLevel))
			continue
		}
		if m.Edges.Namespace != nil {
			byPath[m.Edges.Namespace.FullPath] = max(byPath[m.Edges.Namespace.FullPath], Level(m.AccessLevel))
		}
	}
	inGroup := map[int]Level{} // groups the user belongs to, with inheritance
	paths := map[int]string{}
	if err := p.withDescendants(ctx, byPath, inGroup, paths); err != nil {
		return nil, err
	}
	for id, l := range inGroup {
		s.GroupLevels[id] = l
	}
	belongs := make([]int, 0, len(inGroup))
	for id := range inGroup {
		belongs = append(belongs, id)
	}
	if len(belongs) > 0 {
		links, err := p.db(ctx).GroupGroupLink.Query().
			Where(groupgrouplink.SharedWithGroupIDIn(belongs...), activeGroupLink()).
			WithSharedGroup(func(q *ent.NamespaceQuery) { q.Select(namespace.FieldID, namespace.FieldFullPath) }).
			All(ctx)
		if err != nil {
			return nil, err
		}
		shared := map[string]Level{}
		for _, l := range links {
			lvl := min(inGroup[l.SharedWithGroupID], Level(l.GroupAccess))
			path := l.Edges.SharedGroup.FullPath
			shared[path] = max(shared[path], lvl)
		}
		sharedLevels := map[int]Level{}
		if err := p.withDescendants(ctx, shared, sharedLevels, paths); err != nil {
			return nil, err
		}
		for id, l := range sharedLevels {
			s.GroupLevels[id] = max(s.GroupLevels[id], l)
		}
	}
	for _, ns := range own {
		s.GroupLevels[ns.ID] = Owner
		paths[ns.ID] = ns.FullPath
	}
	if len(belongs) > 0 {
		plinks, err := p.db(ctx).ProjectGroupLink.Query().
			Where(projectgrouplink.GroupIDIn(belongs...), activeProjectLink()).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, l := range plinks {
			s.ProjectLevels[l.ProjectID] = max(s.ProjectLevels[l.ProjectID], min(inGroup[l.GroupID], Level(l.GroupAccess)))
		}
	}
	for id := range s.GroupLevels {
		for _, anc := range Ancestors(paths[id]) {
			s.ReadableGroupPaths[anc] = true
		}
	}
	if len(s.ProjectLevels) > 0 {
		ids := make([]int, 0, len(s.ProjectLevels))
		for id := range s.ProjectLevels {
			ids = append(ids, id)
		}
		nss, err := p.db(ctx).Namespace.Query().
			Where(namespace.HasProjectsWith(project.IDIn(ids...))).
			Select(namespace.FieldFullPath).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, ns := range nss {
			for _, anc := range Ancestors(ns.FullPath) {
				s.ReadableGroupPaths[anc] = true
			}
		}
	}
	return s, nil
}

// VisibleGroups is the predicate for the groups the actor may read (VisibleGroupsIn with the
// actor's scope loaded).
func (p *Policy) VisibleGroups(ctx context.Context, a *Actor) (predicate.Namespace, error) {
	if a.IsAdmin() {
		return VisibleGroupsIn(a, nil), nil
	}
	s, err := p.scopeOf(ctx, a)
	if err != nil {
		return nil, err
	}
	return VisibleGroupsIn(a, s), nil
}

// GroupsWithLevel is the predicate for groups where the actor's level is at least minLevel
// (GroupsWithLevelIn with the actor's scope loaded).
func (p *Policy) GroupsWithLevel(ctx context.Context, a *Actor, minLevel Level) (predicate.Namespace, error) {
	s, err := p.scopeOf(ctx, a)
	if err != nil {
		return nil, err
	}
	return GroupsWithLevelIn(a, s, minLevel), nil
}

// scopeOf loads the actor's scope, or none for anonymous callers.
func (p *Policy) scopeOf(ctx context.Context, a *Actor) (*Scope, error) {
	if a.IsAnonymous() {
		return nil, nil
	}
	return p.Scope(ctx, a, Minimal)
}
