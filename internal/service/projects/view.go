package projects

import (
	"context"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// View is what presenting projects needs beyond the rows: the viewer's level and memberships
// per project, the namespaces' human names, fork counts and which related records the viewer
// may see. It is computed once per request (a few queries for a whole page), so presenters
// stay pure.
type View struct {
	Actor         *authz.Actor
	levels        map[int]authz.Level
	projectMember map[int]int    // project id -> direct membership level
	groupMember   map[int]int    // project id -> highest membership in its group or ancestors
	fullNames     map[int]string // namespace id -> "Group / Subgroup"
	forks         map[int]int
	empty         map[int]bool
	readme        map[int]string // project id -> README path (single-project reads only)
	forkParent    map[int]bool   // parent project id -> readable
	groups        map[int]bool   // shared group id -> readable
}

// NotificationLevelGlobal is the notification level of a membership whose owner never changed
// it (GitLab's "global", 3).
const NotificationLevelGlobal = 3

// Level is the viewer's effective level in p (Admin for administrators).
func (v *View) Level(p *ent.Project) authz.Level { return v.levels[p.ID] }

// Can reports whether the viewer has ability on p.
func (v *View) Can(p *ent.Project, ability authz.Ability) bool {
	if ability == authz.ReadProject {
		return true
	}
	return authz.CanProject(v.Actor, p, v.Level(p), ability)
}

// FeatureAvailable is GitLab's feature_available? for the viewer (authz.FeatureAvailable).
func (v *View) FeatureAvailable(p *ent.Project, feature string) bool {
	return authz.FeatureAvailable(v.Actor, p, v.Level(p), authz.Feature(feature))
}

// ProjectAccess is the viewer's direct membership level in p, or nil.
func (v *View) ProjectAccess(p *ent.Project) *int {
	if l, ok := v.projectMember[p.ID]; ok {
		return &l
	}
	return nil
}

// GroupAccess is the viewer's highest membership level in p's group and its ancestors, or nil
// (always nil for projects in a personal namespace).
func (v *View) GroupAccess(p *ent.Project) *int {
	if l, ok := v.groupMember[p.ID]; ok {
		return &l
	}
	return nil
}

// NamespaceFullName is the human name of p's namespace with its ancestors ("Group / Sub").
func (v *View) NamespaceFullName(p *ent.Project) string {
	if n, ok := v.fullNames[p.NamespaceID]; ok {
		return n
	}
	if ns := p.Edges.Namespace; ns != nil {
		return ns.Name
	}
	return ""
}

// ForksCount is the number of forks of p.
func (v *View) ForksCount(p *ent.Project) int { return v.forks[p.ID] }

// EmptyRepo reports whether p's repository has no commits.
func (v *View) EmptyRepo(p *ent.Project) bool {
	e, ok := v.empty[p.ID]
	return !ok || e
}

// ReadmePath is the path of p's README at the root of its default branch, "" when there is
// none or it was not looked up (listings).
func (v *View) ReadmePath(p *ent.Project) string { return v.readme[p.ID] }

// ShowForkParent reports whether p's fork parent is loaded and readable by the viewer.
func (v *View) ShowForkParent(p *ent.Project) bool {
	parent := p.Edges.ForkedFrom
	return parent != nil && v.forkParent[parent.ID]
}

// ShowSharedGroup reports whether a group p is shared with appears in shared_with_groups:
// all of them for those who administer p, else only groups the viewer can read.
func (v *View) ShowSharedGroup(p *ent.Project, g *ent.Namespace) bool {
	return g != nil && (v.Can(p, authz.AdminProject) || v.groups[g.ID])
}

// FeatureLevel returns p's access level for a feature of Features.
func FeatureLevel(p *ent.Project, feature string) string {
	return authz.FeatureLevel(p, authz.Feature(feature))
}

// withDetail eager-loads what the project shapes read: the namespace and its owner, the group
// shares with their groups, and the fork parent with its namespace.
func withDetail(q *ent.ProjectQuery) *ent.ProjectQuery {
	return q.WithNamespace(func(nq *ent.NamespaceQuery) { nq.WithOwner(selectUserBasic) }).
		WithGroupLinks(func(lq *ent.ProjectGroupLinkQuery) { lq.WithGroup() }).
		WithForkedFrom(func(fq *ent.ProjectQuery) { fq.WithNamespace() })
}

// selectUserBasic reads only the columns of the UserBasic shape (the owner of a personal
// project): a page of 100 projects then scans a few columns per owner instead of all of them.
func selectUserBasic(q *ent.UserQuery) {
	q.Select(user.FieldUsername, user.FieldName, user.FieldState, user.FieldLockedUntil,
		user.FieldAvatarURL, user.FieldEmail)
}

// levelFunc computes the viewer's level in a project and whether it may read it.
type levelFunc func(p *ent.Project) (authz.Level, bool, error)

// groupFunc reports whether the viewer may read a group.
type groupFunc func(g *ent.Namespace) (bool, error)

// scopeFuncs answers levels and group readability from a loaded scope (lists).
func scopeFuncs(actor *authz.Actor, scope *authz.Scope) (levelFunc, groupFunc) {
	return func(p *ent.Project) (authz.Level, bool, error) {
			l := authz.ProjectLevelIn(actor, scope, p)
			return l, authz.CanReadProjectIn(actor, p, l), nil
		}, func(g *ent.Namespace) (bool, error) {
			return authz.CanReadGroupIn(actor, scope, g), nil
		}
}

// policyFuncs answers levels and group readability through the policy (single projects, where
// loading the whole scope would cost more than asking).
func (s *Service) policyFuncs(ctx context.Context, actor *authz.Actor) (levelFunc, groupFunc) {
	return func(p *ent.Project) (authz.Level, bool, error) {
			return s.policy.ProjectLevel(ctx, actor, p)
		}, func(g *ent.Namespace) (bool, error) {
			if authz.CanReadGroupIn(actor, nil, g) {
				return true, nil // public, or internal for signed-in users: no need to ask
			}
			_, ok, err := s.policy.GroupLevel(ctx, actor, g)
			return ok, err
		}
}

func newView(actor *authz.Actor) *View {
	return &View{
		Actor: actor, levels: map[int]authz.Level{}, projectMember: map[int]int{}, groupMember: map[int]int{},
		fullNames: map[int]string{}, forks: map[int]int{}, empty: map[int]bool{},
		readme: map[int]string{}, forkParent: map[int]bool{}, groups: map[int]bool{},
	}
}

// view computes the View of rows (loaded withDetail) for actor.
func (s *Service) view(ctx context.Context, actor *authz.Actor, rows []*ent.Project, level levelFunc, group groupFunc) (*View, error) {
	v := newView(actor)
	if len(rows) == 0 {
		return v, nil
	}
	c := db.ClientFrom(ctx, s.client)
	nsIDs, err := s.loadNamespaceNames(ctx, c, rows, v)
	if err != nil {
		return nil, err
	}
	// The levels, the memberships and the fork counts are independent reads, each filling its
	// own map: on a database across the network their round trips overlap.
	err = db.Concurrently(ctx, c,
		func(ctx context.Context) error {
			for _, p := range rows {
				if _, ok := v.levels[p.ID]; ok {
					continue
				}
				l, _, err := level(p)
				if err != nil {
					return err
				}
				v.levels[p.ID] = l
			}
			return nil
		},
		func(ctx context.Context) error { return s.loadMemberships(ctx, c, actor, rows, nsIDs, v) },
		func(ctx context.Context) error { return s.loadForks(ctx, c, rows, v) },
	)
	if err != nil {
		return nil, err
	}
	if err := s.loadRelated(rows, v, level, group); err != nil {
		return nil, err
	}
	s.inspect(ctx, rows, v)
	return v, nil
}

// inspect fills what the repositories tell: empty_repo and, for a single project, its README.
func (s *Service) inspect(ctx context.Context, rows []*ent.Project, v *View) {
	for id, empty := range s.repos.EmptyRepos(ctx, rows) {
		v.empty[id] = empty
	}
	if len(rows) == 1 && !v.EmptyRepo(rows[0]) {
		v.readme[rows[0].ID] = s.repos.ReadmePath(ctx, rows[0])
	}
}

// loadNamespaceNames fills the namespaces' full human names, loading the names of ancestors of
// nested groups in one query. It returns namespace full path -> id for every namespace seen.
func (s *Service) loadNamespaceNames(ctx context.Context, c *ent.Client, rows []*ent.Project, v *View) (map[string]int, error) {
	byPath := map[string]*ent.Namespace{}
	var missing []string
	for _, p := range rows {
		ns := p.Edges.Namespace
		if ns == nil {
			continue
		}
		byPath[ns.FullPath] = ns
	}
	for _, ns := range byPath {
		if ns.ParentID == nil {
			continue
		}
		for _, anc := range authz.Ancestors(ns.FullPath) {
			if _, ok := byPath[anc]; !ok {
				missing = append(missing, anc)
			}
		}
	}
	if len(missing) > 0 {
		found, err := c.Namespace.Query().Where(namespace.FullPathIn(missing...)).
			Select(namespace.FieldID, namespace.FieldName, namespace.FieldFullPath, namespace.FieldKind).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, ns := range found {
			byPath[ns.FullPath] = ns
		}
	}
	ids := make(map[string]int, len(byPath))
	for path, ns := range byPath {
		ids[path] = ns.ID
	}
	for _, p := range rows {
		ns := p.Edges.Namespace
		if ns == nil {
			continue
		}
		if ns.Kind == namespace.KindUser || ns.ParentID == nil {
			v.fullNames[ns.ID] = ns.Name
			continue
		}
		var names []string
		for _, anc := range authz.Ancestors(ns.FullPath) {
			if a, ok := byPath[anc]; ok {
				names = append(names, a.Name)
			}
		}
		v.fullNames[ns.ID] = strings.Join(names, " / ")
	}
	return ids, nil
}

// loadMemberships loads the viewer's direct memberships of the rows and of their namespaces
// and ancestors in one query: permissions.project_access and group_access.
func (s *Service) loadMemberships(ctx context.Context, c *ent.Client, actor *authz.Actor, rows []*ent.Project, nsIDs map[string]int, v *View) error {
	if actor.IsAnonymous() {
		return nil
	}
	uid := actor.User.ID
	pids := make([]int, 0, len(rows))
	for _, p := range rows {
		pids = append(pids, p.ID)
	}
	gids := make([]int, 0, len(nsIDs))
	for _, id := range nsIDs {
		gids = append(gids, id)
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	ms, err := c.Member.Query().
		Where(member.UserID(uid), member.State("active"),
			member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today)),
			member.Or(member.ProjectIDIn(pids...), member.NamespaceIDIn(gids...))).
		Select(member.FieldProjectID, member.FieldNamespaceID, member.FieldAccessLevel).All(ctx)
	if err != nil {
		return err
	}
	byNS := map[int]int{}
	for _, m := range ms {
		switch {
		case m.ProjectID != nil:
			v.projectMember[*m.ProjectID] = max(v.projectMember[*m.ProjectID], m.AccessLevel)
		case m.NamespaceID != nil:
			byNS[*m.NamespaceID] = max(byNS[*m.NamespaceID], m.AccessLevel)
		}
	}
	for _, p := range rows {
		ns := p.Edges.Namespace
		if ns == nil {
			continue
		}
		if ns.Kind == namespace.KindUser {
			// The owner of a personal namespace is its projects' Owner member in GitLab;
			// projects made without the service (fixtures, imports) may lack the row.
			if _, ok := v.projectMember[p.ID]; !ok && authz.OwnsPersonalNamespace(ns, uid) {
				v.projectMember[p.ID] = int(authz.Owner)
			}
			continue
		}
		best, found := 0, false
		for _, anc := range authz.Ancestors(ns.FullPath) {
			if l, ok := byNS[nsIDs[anc]]; ok && nsIDs[anc] != 0 {
				best, found = max(best, l), true
			}
		}
		if found {
			v.groupMember[p.ID] = best
		}
	}
	return nil
}

// loadForks counts the forks of the rows and of their fork parents in one query.
func (s *Service) loadForks(ctx context.Context, c *ent.Client, rows []*ent.Project, v *View) error {
	ids := make([]int, 0, len(rows))
	for _, p := range rows {
		ids = append(ids, p.ID)
		if p.Edges.ForkedFrom != nil {
			ids = append(ids, p.Edges.ForkedFrom.ID)
		}
	}
	var counts []struct {
		ForkedFromID int `json:"forked_from_id"`
		Count        int `json:"count"`
	}
	err := c.Project.Query().Where(project.ForkedFromIDIn(ids...), project.PendingDelete(false)).
		GroupBy(project.FieldForkedFromID).Aggregate(ent.Count()).Scan(ctx, &counts)
	if err != nil {
		return err
	}
	for _, r := range counts {
		v.forks[r.ForkedFromID] = r.Count
	}
	return nil
}

// loadRelated decides which fork parents and shared groups the viewer may see.
func (s *Service) loadRelated(rows []*ent.Project, v *View, level levelFunc, group groupFunc) error {
	for _, p := range rows {
		if parent := p.Edges.ForkedFrom; parent != nil {
			if _, done := v.forkParent[parent.ID]; !done {
				_, ok, err := level(parent)
				if err != nil {
					return err
				}
				v.forkParent[parent.ID] = ok
			}
		}
		if v.Can(p, authz.AdminProject) {
			continue
		}
		for _, l := range p.Edges.GroupLinks {
			g := l.Edges.Group
			if g == nil {
				continue
			}
			if _, done := v.groups[g.ID]; done {
				continue
			}
			ok, err := group(g)
			if err != nil {
				return err
			}
			v.groups[g.ID] = ok
		}
	}
	return nil
}

// IdentityView is the View of rows with only what the smallest project shape needs (the
// namespaces' human names, for name_with_namespace), for resources that embed their project:
// two queries for a whole page, and no access levels (the caller has authorized the reader).
func (s *Service) IdentityView(ctx context.Context, actor *authz.Actor, rows []*ent.Project) (*View, error) {
	v := newView(actor)
	if len(rows) == 0 {
		return v, nil
	}
	if _, err := s.loadNamespaceNames(ctx, db.ClientFrom(ctx, s.client), rows, v); err != nil {
		return nil, err
	}
	return v, nil
}
