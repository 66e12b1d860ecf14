package authz

import (
	"context"
	"fmt"
	"time"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// AccessFacts is what deciding a user's access to one project reads, read beforehand with the
// project itself (see AccessReads) so that reading a project and deciding who may see it cost
// one round trip of statements side by side, not several one after the other.
type AccessFacts struct {
	// Chain is the project's namespace followed by its ancestors up to the top-level group.
	Chain []*ent.Namespace
	// ProjectMember is the user's active direct membership level in the project, if any.
	ProjectMember *Level
	// GroupMember is the user's active membership level per namespace of Chain that has one.
	GroupMember map[int]Level
	// Shared reports whether a namespace of Chain is shared with a group (actively).
	Shared bool

	chain []*ent.Namespace // as read: unordered
}

// Dynamic columns the reads add: the viewer's membership level (on the project row and on each
// namespace of the chain) and whether a namespace is shared with groups.
const (
	memberLevelColumn = "viewer_member_level"
	sharedColumn      = "shared_with_groups"
)

// AccessReads returns what fills the facts about the one project the predicates where select
// (at most one), for the actor: a read of its namespace chain (with the actor's membership of
// each namespace and whether any is shared), which selects only through where so that it can
// run side by side with the reads of the project itself, and a modifier the caller adds to its
// read of the project row (the actor's direct membership, as a column). Resolve takes both in
// once the project is read.
func (p *Policy) AccessReads(c *ent.Client, a *Actor, where []predicate.Project) (*AccessFacts, func(context.Context) error, func(*sql.Selector)) {
	f := &AccessFacts{GroupMember: map[int]Level{}}
	askMembers := !a.IsAnonymous() // administrators too: their memberships are shown
	var uid int
	if askMembers {
		uid = a.User.ID
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	readChain := func(ctx context.Context) (err error) {
		q := c.Namespace.Query().Where(inNamespaceTree(func() *sql.Selector { return namespaceChain(where) }))
		q.Modify(func(s *sql.Selector) {
			if askMembers {
				s.AppendSelectExprAs(memberLevelOf(s.C(namespace.FieldID), member.FieldNamespaceID, uid, today), memberLevelColumn)
			}
			s.AppendSelectExprAs(sharedNow(s.C(namespace.FieldID), today), sharedColumn)
		})
		f.chain, err = q.All(ctx)
		return err
	}
	projectColumns := func(s *sql.Selector) {
		if askMembers {
			s.AppendSelectExprAs(memberLevelOf(s.C(project.FieldID), member.FieldProjectID, uid, today), memberLevelColumn)
		}
	}
	return f, readChain, projectColumns
}

// Resolve takes the facts in for proj, read with the modifier AccessReads returned: the chain
// ordered from proj's namespace up, the memberships. It fails on a chain that does not lead
// from proj's namespace to a top-level one (the project moved while it was read), so that the
// caller can decide with ProjectAccess instead.
func (f *AccessFacts) Resolve(proj *ent.Project) error {
	if l, ok := db.IntValue(proj.Value(memberLevelColumn)); ok {
		level := Level(l)
		f.ProjectMember = &level
	}
	byID := make(map[int]*ent.Namespace, len(f.chain))
	for _, ns := range f.chain {
		byID[ns.ID] = ns
	}
	f.Chain = f.Chain[:0]
	for id := &proj.NamespaceID; id != nil; {
		ns, ok := byID[*id]
		if !ok || len(f.Chain) > len(f.chain) {
			return fmt.Errorf("access facts: namespace %d of project %d not read", *id, proj.ID)
		}
		f.Chain = append(f.Chain, ns)
		if l, ok := db.IntValue(ns.Value(memberLevelColumn)); ok {
			f.GroupMember[ns.ID] = Level(l)
		}
		if shared, ok := db.IntValue(ns.Value(sharedColumn)); ok && shared != 0 {
			f.Shared = true
		}
		id = ns.ParentID
	}
	return nil
}

// ProjectLevelFrom is ProjectLevel decided from facts read (and resolved) beforehand.
func (p *Policy) ProjectLevelFrom(ctx context.Context, a *Actor, proj *ent.Project, f *AccessFacts) (Level, bool, error) {
	if a.IsAdmin() {
		return Admin, true, nil
	}
	level, err := p.projectAccessFrom(ctx, a, proj, f)
	if err != nil {
		return NoAccess, false, err
	}
	return level, canReadProject(a, proj, level), nil
}

// projectAccessFrom is ProjectAccess from facts: only shares (of the namespace chain or of the
// project with groups) that could raise the level still cost reads.
func (p *Policy) projectAccessFrom(ctx context.Context, a *Actor, proj *ent.Project, f *AccessFacts) (Level, error) {
	if a.IsAnonymous() {
		return NoAccess, nil
	}
	ns := f.Chain[0]
	level := NoAccess
	if OwnsPersonalNamespace(ns, a.User.ID) {
		level = Owner
	}
	if f.ProjectMember != nil {
		level = max(level, *f.ProjectMember)
	}
	for _, l := range f.GroupMember {
		level = max(level, l)
	}
	if ns.Kind != namespace.KindUser && f.Shared {
		ids := make([]int, len(f.Chain))
		for i, n := range f.Chain {
			ids[i] = n.ID
		}
		var err error
		if level, err = p.groupShareLevel(ctx, a.User.ID, ids, level); err != nil {
			return NoAccess, err
		}
	}
	return p.projectShareLevel(ctx, a, proj, level)
}

// memberLevelOf is the user's highest active membership level of the source whose id is the
// outer column sourceID (in the members' column sourceColumn), or NULL.
func memberLevelOf(sourceID, sourceColumn string, uid int, today time.Time) *sql.Selector {
	m := sql.Table(member.Table).As("viewer_members")
	return sql.Select(sql.Max(m.C(member.FieldAccessLevel))).From(m).Where(sql.And(
		sql.ColumnsEQ(m.C(sourceColumn), sourceID),
		sql.EQ(m.C(member.FieldUserID), uid),
		sql.EQ(m.C(member.FieldState), "active"),
		sql.Or(sql.IsNull(m.C(member.FieldExpiresAt)), sql.GTE(m.C(member.FieldExpiresAt), today)),
	))
}

// sharedNow counts the active shares of the group whose id is the outer column groupID.
func sharedNow(groupID string, today time.Time) *sql.Selector {
	l := sql.Table(groupgrouplink.Table).As("chain_shares")
	return sql.Select(sql.Count("*")).From(l).Where(sql.And(
		sql.ColumnsEQ(l.C(groupgrouplink.FieldSharedGroupID), groupID),
		sql.Or(sql.IsNull(l.C(groupgrouplink.FieldExpiresAt)), sql.GTE(l.C(groupgrouplink.FieldExpiresAt), today)),
	))
}
