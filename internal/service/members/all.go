package members

import (
	"context"
	"slices"
	"sort"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/projectgrouplink"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// candidate is one membership row that gives a user access to the source.
type candidate struct {
	m     *ent.Member
	level int  // effective level: capped by the share for invited groups
	own   bool // the source's own row (a project's direct member)
	// invitedFrom is the invited group (or its ancestor) the row belongs to; nil for the
	// source's own rows and those inherited from its ancestors.
	invitedFrom *ent.Namespace
}

// ListAll returns one page of the members of a source including those inherited from ancestor
// groups and those of invited groups, each user once with the highest access level, by
// membership id. Invited groups' members are listed when the group is visible to the actor or
// the actor belongs to the source.
func (s *Service) ListAll(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset) (pagination.Result[*Entry], error) {
	entries, err := s.all(ctx, actor, p)
	if err != nil {
		return pagination.Result[*Entry]{}, err
	}
	return pageOf(entries, page), nil
}

// GetAll returns one member of a source including inherited and invited members: 404 Not found.
func (s *Service) GetAll(ctx context.Context, actor *authz.Actor, ref Ref, userID int, showSeatInfo bool) (*Entry, error) {
	entries, err := s.all(ctx, actor, ListParams{Source: ref, UserIDs: []int{userID}, ShowSeatInfo: showSeatInfo})
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, notFound()
	}
	return entries[0], nil
}

// all computes the deduplicated, filtered, ordered inherited member list.
func (s *Service) all(ctx context.Context, actor *authz.Actor, p ListParams) ([]*Entry, error) {
	src, err := s.resolve(ctx, actor, p.Source, true)
	if err != nil {
		return nil, err
	}
	cands, err := s.candidates(ctx, actor, src, p)
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
	admin, err := s.canAdminMembers(ctx, actor, src)
	if err != nil {
		return nil, err
	}
	entries := make([]*Entry, 0, len(best))
	hide := map[*Entry]bool{}
	readable := map[int]bool{}
	for uid, c := range best {
		if p.State != "" && c.m.State != p.State {
			continue
		}
		e := &Entry{Member: c.m, User: c.m.Edges.User, AccessLevel: levels[uid]}
		if c.invitedFrom != nil && c.invitedFrom.Visibility != namespace.VisibilityPublic && !admin {
			ok, seen := readable[c.invitedFrom.ID]
			if !seen {
				if _, ok, err = s.policy.GroupLevel(ctx, actor, c.invitedFrom); err != nil {
					return nil, err
				}
				readable[c.invitedFrom.ID] = ok
			}
			hide[e] = !ok
		}
		entries = append(entries, e)
	}
	if p.Query != "" {
		slices.SortFunc(entries, compareSearch(p.Query))
	} else {
		sort.Slice(entries, func(i, j int) bool { return entries[i].Member.ID < entries[j].Member.ID })
	}
	return entries, s.decorate(ctx, entries, p.ShowSeatInfo, hide)
}

// better picks the row that represents a user: the source's own row, then the highest level,
// then a membership without expiry (or expiring later), then the oldest.
func better(a, b *candidate) bool {
	if a.own != b.own {
		return a.own
	}
	if a.level != b.level {
		return a.level > b.level
	}
	ae, be := a.m.ExpiresAt, b.m.ExpiresAt
	switch {
	case ae == nil && be != nil:
		return true
	case ae != nil && be == nil:
		return false
	case ae != nil && !ae.Equal(*be):
		return ae.After(*be)
	}
	if !a.m.CreatedAt.Equal(b.m.CreatedAt) {
		return a.m.CreatedAt.Before(b.m.CreatedAt)
	}
	return a.m.ID < b.m.ID
}

// candidates gathers every row that gives a user access to the source: every relation.
func (s *Service) candidates(ctx context.Context, actor *authz.Actor, src *Source, p ListParams) ([]*candidate, error) {
	return s.relationCandidates(ctx, actor, src, p, func(...Relation) bool { return true })
}

// belongsToGroup reports whether the actor has at least Guest access to the group (GitLab's
// group.member?), which lets it see members of every group invited there.
func (s *Service) belongsToGroup(ctx context.Context, actor *authz.Actor, ns *ent.Namespace) (bool, error) {
	level, _, err := s.policy.GroupLevel(ctx, actor, ns)
	return level >= authz.Guest, err
}

// invitedRows returns the members of an invited group and its ancestors, their levels capped
// by the share's group_access. A group invisible to the actor is skipped unless the actor
// belongs to the inviting source.
func (s *Service) invitedRows(ctx context.Context, actor *authz.Actor, invited *ent.Namespace, access int, memberOfSource bool, p ListParams) ([]*candidate, error) {
	if !memberOfSource {
		_, ok, err := s.policy.GroupLevel(ctx, actor, invited)
		if err != nil || !ok {
			return nil, err
		}
	}
	chain, err := s.ancestors(ctx, invited)
	if err != nil {
		return nil, err
	}
	return s.groupRows(ctx, chain, p, access, chain)
}

// groupRows returns the membership rows of the groups in chain. A positive capAt caps each
// level; invited names the invited chain the rows come from (nil for inherited rows).
func (s *Service) groupRows(ctx context.Context, chain []*ent.Namespace, p ListParams, capAt int, invited []*ent.Namespace) ([]*candidate, error) {
	rows, err := byUsers(db.ClientFrom(ctx, s.client).Member.Query().
		Where(member.NamespaceIDIn(nsIDs(chain)...), visible()), p).WithUser().All(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[int]*ent.Namespace{}
	for _, n := range invited {
		byID[n.ID] = n
	}
	out := make([]*candidate, 0, len(rows))
	for _, m := range rows {
		c := &candidate{m: m, level: m.AccessLevel}
		if capAt > 0 {
			c.level = min(c.level, capAt)
		}
		if invited != nil && m.NamespaceID != nil {
			c.invitedFrom = byID[*m.NamespaceID]
		}
		out = append(out, c)
	}
	return out, nil
}

func nsIDs(chain []*ent.Namespace) []int {
	ids := make([]int, 0, len(chain))
	for _, n := range chain {
		ids = append(ids, n.ID)
	}
	return ids
}

// linkInForce keeps group shares that have not expired.
func linkInForce() predicate.GroupGroupLink {
	return groupgrouplink.Or(groupgrouplink.ExpiresAtIsNil(), groupgrouplink.ExpiresAtGTE(today()))
}

// projectLinkInForce keeps project shares that have not expired.
func projectLinkInForce() predicate.ProjectGroupLink {
	return projectgrouplink.Or(projectgrouplink.ExpiresAtIsNil(), projectgrouplink.ExpiresAtGTE(today()))
}
