package members

import (
	"context"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/projectgrouplink"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Relation is one way a user can be a member of a source, named as GitLab's members finders
// name their include_relations.
type Relation string

// The relations QueryAll understands.
const (
	// Direct: memberships of the source itself.
	Direct Relation = "direct"
	// Inherited: memberships of the source's ancestor groups (for a project, its group and that
	// group's ancestors).
	Inherited Relation = "inherited"
	// SharedFromGroups: members of the groups a group, or one of its ancestors, is shared with
	// (and of those groups' ancestors), their levels capped by the share.
	SharedFromGroups Relation = "shared_from_groups"
	// SharedIntoAncestors is SharedFromGroups for a project: members of the groups its group's
	// chain is shared with.
	SharedIntoAncestors Relation = "shared_into_ancestors"
	// InvitedGroups: members of the groups a project is shared with, capped by the share.
	InvitedGroups Relation = "invited_groups"
)

// AllQuery is a member listing through several relations that can be paged by cursor: the
// query selects one membership row per user, and Levels tells the level to show for it.
type AllQuery struct {
	// Query selects, for each user reached through the relations, the row ListAll shows for
	// them (a project's own row first, then the highest level, ...), unordered.
	Query *ent.MemberQuery
	// Levels is the level to show by membership id: the user's highest level through the
	// relations, invited groups' levels capped by their share. It can differ from the row's own
	// level (a project member with a higher inherited level).
	Levels map[int]int
}

// QueryAll returns the members of p.Source the actor may list through relations (all of them
// when none is given), each user once, as the GraphQL members connections page them. It applies
// p's Query, UserIDs and State filters and the same visibility rules as ListAll: members of
// invited groups are listed when the group is visible to the actor or the actor belongs to the
// source. The user sets are computed here, so a listing reads every candidate row once; the
// returned query then pages them by any order. Errors are those of Query: 404 when the source is
// invisible, 403 when its members are hidden from the actor.
func (s *Service) QueryAll(ctx context.Context, actor *authz.Actor, p ListParams, relations ...Relation) (*AllQuery, error) {
	src, err := s.resolve(ctx, actor, p.Source, true)
	if err != nil {
		return nil, err
	}
	want := map[Relation]bool{}
	for _, r := range relations {
		want[r] = true
	}
	all := len(want) == 0
	has := func(rs ...Relation) bool {
		for _, r := range rs {
			if all || want[r] {
				return true
			}
		}
		return false
	}
	cands, err := s.relationCandidates(ctx, actor, src, p, has)
	if err != nil {
		return nil, err
	}
	best := map[int]*candidate{}
	levels := map[int]int{}
	for _, c := range cands {
		uid := c.m.UserID
		levels[uid] = max(levels[uid], c.level)
		if cur, ok := best[uid]; !ok || better(c, cur) {
			best[uid] = c
		}
	}
	out := &AllQuery{Levels: make(map[int]int, len(best))}
	ids := make([]int, 0, len(best))
	for uid, c := range best {
		if p.State != "" && c.m.State != p.State {
			continue
		}
		ids = append(ids, c.m.ID)
		out.Levels[c.m.ID] = levels[uid]
	}
	out.Query = db.ClientFrom(ctx, s.client).Member.Query().Where(member.IDIn(ids...))
	return out, nil
}

// relationCandidates gathers the rows that give a user access to the source through the
// relations has accepts; it is candidates split by relation.
func (s *Service) relationCandidates(ctx context.Context, actor *authz.Actor, src *Source, p ListParams, has func(...Relation) bool) ([]*candidate, error) {
	var out []*candidate
	c := db.ClientFrom(ctx, s.client)
	if src.Kind == ProjectKind && has(Direct) {
		rows, err := byUsers(c.Member.Query().Where(src.direct(), visible()), p).WithUser().All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range rows {
			out = append(out, &candidate{m: m, level: m.AccessLevel, own: true})
		}
	}
	ns := src.Namespace()
	if ns.Kind == namespace.KindGroup {
		chain, err := s.ancestors(ctx, ns)
		if err != nil {
			return nil, err
		}
		var groups []*ent.Namespace
		for _, g := range chain {
			// A group's own rows are its direct members; every other group of the chain (and,
			// for a project, its group too) is inherited.
			direct := src.Kind == GroupKind && g.ID == ns.ID
			if (direct && has(Direct)) || (!direct && has(Inherited)) {
				groups = append(groups, g)
			}
		}
		if len(groups) > 0 {
			rows, err := s.groupRows(ctx, groups, p, 0, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, rows...)
		}
		if has(SharedFromGroups, SharedIntoAncestors) {
			rows, err := s.sharedRows(ctx, actor, ns, chain, p)
			if err != nil {
				return nil, err
			}
			out = append(out, rows...)
		}
	}
	if src.Kind == ProjectKind && has(InvitedGroups) {
		rows, err := s.projectInvitedRows(ctx, actor, src.Project, p)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// sharedRows are the members of the groups shared with ns or its ancestors (chain).
func (s *Service) sharedRows(ctx context.Context, actor *authz.Actor, ns *ent.Namespace, chain []*ent.Namespace, p ListParams) ([]*candidate, error) {
	links, err := db.ClientFrom(ctx, s.client).GroupGroupLink.Query().
		Where(groupgrouplink.SharedGroupIDIn(nsIDs(chain)...), linkInForce()).
		WithSharedWithGroup().All(ctx)
	if err != nil || len(links) == 0 {
		return nil, err
	}
	belongs, err := s.belongsToGroup(ctx, actor, ns)
	if err != nil {
		return nil, err
	}
	var out []*candidate
	for _, l := range links {
		rows, err := s.invitedRows(ctx, actor, l.Edges.SharedWithGroup, l.GroupAccess, belongs, p)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// projectInvitedRows are the members of the groups a project is shared with.
func (s *Service) projectInvitedRows(ctx context.Context, actor *authz.Actor, proj *ent.Project, p ListParams) ([]*candidate, error) {
	links, err := db.ClientFrom(ctx, s.client).ProjectGroupLink.Query().
		Where(projectgrouplink.ProjectID(proj.ID), projectLinkInForce()).WithGroup().All(ctx)
	if err != nil || len(links) == 0 {
		return nil, err
	}
	level, _, err := s.policy.ProjectLevel(ctx, actor, proj)
	if err != nil {
		return nil, err
	}
	var out []*candidate
	for _, l := range links {
		rows, err := s.invitedRows(ctx, actor, l.Edges.Group, l.GroupAccess, level >= authz.Guest, p)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}
