package members

import (
	"context"
	"sort"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
)

// The membership types of a billable member, in the order GitLab reports the first that applies.
const (
	typeGroupMember   = "group_member"
	typeProjectMember = "project_member"
	typeGroupInvite   = "group_invite"
	typeProjectInvite = "project_invite"
)

// seat is how a user takes a seat in a hierarchy.
type seat struct {
	types  map[string]bool
	level  int       // highest billable level
	joined time.Time // earliest membership
}

// badRequest is GitLab's bad_request!(reason); reason may be empty.
func badRequest(reason string) error { return apperr.BadRequest(reason) }

// topGroup finds a group readable by the actor for the billable endpoints and returns the
// actor's level in it.
func (s *Service) topGroup(ctx context.Context, actor *authz.Actor, ref Ref) (*ent.Namespace, authz.Level, error) {
	ns, err := s.groups.Find(ctx, actor, ref.ID, authz.ReadGroup)
	if err != nil {
		return nil, 0, err
	}
	level, _, err := s.policy.GroupLevel(ctx, actor, ns)
	return ns, level, err
}

// Billable lists the users who take a seat in a top-level group: active humans with a role
// above Guest (Ultimate's rule) in the group, its subgroups and projects, or through groups
// invited to them. Subgroups and callers who are not owners get 400 Bad request.
func (s *Service) Billable(ctx context.Context, actor *authz.Actor, ref Ref, p BillableParams, page pagination.Offset) (pagination.Result[*BillableMember], error) {
	var none pagination.Result[*BillableMember]
	ns, level, err := s.topGroup(ctx, actor, ref)
	if err != nil {
		return none, err
	}
	if ns.ParentID != nil || !authz.CanGroup(actor, ns, level, authz.ReadBillableMember) {
		return none, badRequest("")
	}
	seats, err := s.seats(ctx, ns)
	if err != nil {
		return none, err
	}
	q := db.ClientFrom(ctx, s.client).User.Query().Where(user.IDIn(seatIDs(seats)...))
	if p.Search != "" {
		q = q.Where(userSearch(p.Search))
	}
	users, err := q.All(ctx)
	if err != nil {
		return none, err
	}
	sortBillable(users, seats, p.Sort)
	owners, err := s.ownerIDs(ctx, ns)
	if err != nil {
		return none, err
	}
	out := make([]*BillableMember, 0, len(users))
	for _, u := range users {
		st := seats[u.ID]
		b := &BillableMember{User: u, Removable: st.types[typeGroupMember] || st.types[typeProjectMember]}
		for _, t := range []string{typeGroupMember, typeProjectMember, typeGroupInvite, typeProjectInvite} {
			if st.types[t] {
				b.MembershipType = t
				break
			}
		}
		b.IsLastOwner = len(owners) == 1 && owners[0] == u.ID
		out = append(out, b)
	}
	return pageOf(out, page), nil
}

func seatIDs(seats map[int]*seat) []int {
	ids := make([]int, 0, len(seats))
	for id := range seats {
		ids = append(ids, id)
	}
	return ids
}

// sortBillable orders users by one of BillableSorts; ties and the default go by id.
func sortBillable(users []*ent.User, seats map[int]*seat, by string) {
	timeLess := func(a, b *time.Time, desc bool) (less, decided bool) {
		switch {
		case a == nil && b == nil:
			return false, false
		case a == nil:
			return false, true // nulls last
		case b == nil:
			return true, true
		case a.Equal(*b):
			return false, false
		}
		if desc {
			return a.After(*b), true
		}
		return a.Before(*b), true
	}
	sort.SliceStable(users, func(i, j int) bool {
		a, b := users[i], users[j]
		sa, sb := seats[a.ID], seats[b.ID]
		switch by {
		case "access_level_asc", "access_level_desc":
			if sa.level != sb.level {
				return (sa.level < sb.level) == (by == "access_level_asc")
			}
		case "name_asc", "name_desc":
			if an, bn := strings.ToLower(a.Name), strings.ToLower(b.Name); an != bn {
				return (an < bn) == (by == "name_asc")
			}
		case "last_joined", "oldest_joined":
			if !sa.joined.Equal(sb.joined) {
				return sa.joined.Before(sb.joined) == (by == "oldest_joined")
			}
		case "recent_sign_in", "oldest_sign_in":
			if less, ok := timeLess(a.LastSignInAt, b.LastSignInAt, by == "recent_sign_in"); ok {
				return less
			}
		case "last_activity_on_asc", "last_activity_on_desc":
			if less, ok := timeLess(a.LastActivityOn, b.LastActivityOn, by == "last_activity_on_desc"); ok {
				return less
			}
		}
		return a.ID < b.ID
	})
}

// seats computes who takes a seat in the hierarchy of root and how.
func (s *Service) seats(ctx context.Context, root *ent.Namespace) (map[int]*seat, error) {
	c := db.ClientFrom(ctx, s.client)
	groups, err := s.hierarchy(ctx, root)
	if err != nil {
		return nil, err
	}
	seats := map[int]*seat{}
	add := func(m *ent.Member, level int, kind string) {
		if level <= int(authz.Guest) || m.Edges.User == nil || !billableUser(m.Edges.User) {
			return
		}
		st := seats[m.UserID]
		if st == nil {
			st = &seat{types: map[string]bool{}, joined: m.CreatedAt}
			seats[m.UserID] = st
		}
		st.types[kind] = true
		st.level = max(st.level, level)
		if m.CreatedAt.Before(st.joined) {
			st.joined = m.CreatedAt
		}
	}
	billable := func() *ent.MemberQuery {
		return c.Member.Query().Where(notExpired(), member.State("active"), member.AccessLevelGT(int(authz.Guest))).WithUser()
	}
	direct, err := billable().Where(member.Or(
		member.NamespaceIDIn(groups...), member.HasProjectWith(project.NamespaceIDIn(groups...)),
	)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range direct {
		kind := typeGroupMember
		if m.ProjectID != nil {
			kind = typeProjectMember
		}
		add(m, m.AccessLevel, kind)
	}
	glinks, err := c.GroupGroupLink.Query().Where(groupgrouplink.SharedGroupIDIn(groups...), linkInForce(),
		groupgrouplink.GroupAccessGT(int(authz.Guest))).WithSharedWithGroup().All(ctx)
	if err != nil {
		return nil, err
	}
	plinks, err := c.ProjectGroupLink.Query().Where(projectgrouplink.HasProjectWith(project.NamespaceIDIn(groups...)),
		projectLinkInForce(), projectgrouplink.GroupAccessGT(int(authz.Guest))).WithGroup().All(ctx)
	if err != nil {
		return nil, err
	}
	type invite struct {
		group  *ent.Namespace
		access int
		kind   string
	}
	invites := make([]invite, 0, len(glinks)+len(plinks))
	for _, l := range glinks {
		invites = append(invites, invite{l.Edges.SharedWithGroup, l.GroupAccess, typeGroupInvite})
	}
	for _, l := range plinks {
		invites = append(invites, invite{l.Edges.Group, l.GroupAccess, typeProjectInvite})
	}
	for _, inv := range invites {
		chain, err := s.ancestors(ctx, inv.group)
		if err != nil {
			return nil, err
		}
		rows, err := billable().Where(member.NamespaceIDIn(nsIDs(chain)...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range rows {
			add(m, min(m.AccessLevel, inv.access), inv.kind)
		}
	}
	return seats, nil
}

// BillableMemberships lists a billable user's direct memberships of the groups and projects in
// a top-level group's hierarchy, by membership id. It needs the right to manage the group's
// members (400 Bad request otherwise, and for subgroups).
func (s *Service) BillableMemberships(ctx context.Context, actor *authz.Actor, ref Ref, userID int, page pagination.Offset) (pagination.Result[*Membership], error) {
	var none pagination.Result[*Membership]
	ns, level, err := s.topGroup(ctx, actor, ref)
	if err != nil {
		return none, err
	}
	if !authz.CanGroup(actor, ns, level, authz.AdminGroupMember) || ns.ParentID != nil {
		return none, badRequest("")
	}
	c := db.ClientFrom(ctx, s.client)
	if ok, err := c.User.Query().Where(user.ID(userID)).Exist(ctx); err != nil || !ok {
		if err == nil {
			err = notFound()
		}
		return none, err
	}
	seats, err := s.seats(ctx, ns)
	if err != nil {
		return none, err
	}
	if seats[userID] == nil {
		return none, apperr.NotFound("User")
	}
	rows, err := s.hierarchyMemberships(ctx, ns, userID, notExpired())
	if err != nil {
		return none, err
	}
	names, err := s.hierarchyNames(ctx, ns)
	if err != nil {
		return none, err
	}
	out := make([]*Membership, 0, len(rows))
	for _, m := range rows {
		ms := &Membership{Member: m}
		if p := m.Edges.Project; p != nil {
			path := p.Edges.Namespace.FullPath
			ms.SourceKind, ms.SourceID = ProjectKind, p.ID
			ms.SourceFullName, ms.SourceFullPath = names[path]+" / "+p.Name, path+"/"+p.Path
		} else if n := m.Edges.Namespace; n != nil {
			ms.SourceKind, ms.SourceID = GroupKind, n.ID
			ms.SourceFullName, ms.SourceFullPath = names[n.FullPath], n.FullPath
		}
		out = append(out, ms)
	}
	return pageOf(out, page), nil
}

// hierarchyMemberships returns the user's rows on the groups and projects under root, by id,
// with their sources (and projects' namespaces) loaded.
func (s *Service) hierarchyMemberships(ctx context.Context, root *ent.Namespace, userID int, preds ...predicate.Member) ([]*ent.Member, error) {
	groups, err := s.hierarchy(ctx, root)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).Member.Query().
		Where(member.UserID(userID), member.Or(member.NamespaceIDIn(groups...), member.HasProjectWith(project.NamespaceIDIn(groups...)))).
		Where(preds...).WithNamespace().WithProject(func(q *ent.ProjectQuery) { q.WithNamespace() }).WithUser().
		Order(member.ByID()).All(ctx)
}

// hierarchyNames maps the full path of each group under root to its full name.
func (s *Service) hierarchyNames(ctx context.Context, root *ent.Namespace) (map[string]string, error) {
	rows, err := db.ClientFrom(ctx, s.client).Namespace.Query().
		Where(authz.Subtree(root.FullPath)).All(ctx)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]*ent.Namespace, len(rows))
	for _, n := range rows {
		byPath[n.FullPath] = n
	}
	out := make(map[string]string, len(rows))
	for path := range byPath {
		var chain []*ent.Namespace
		for _, p := range authz.Ancestors(path) {
			if n := byPath[p]; n != nil {
				chain = append(chain, n)
			}
		}
		out[path] = fullName(chain)
	}
	return out, nil
}

// RemoveBillable removes a user from every group and project of a top-level group's hierarchy.
// Failures are 400 Bad request with GitLab's reasons.
func (s *Service) RemoveBillable(ctx context.Context, actor *authz.Actor, ref Ref, userID int) error {
	ns, level, err := s.topGroup(ctx, actor, ref)
	if err != nil {
		return err
	}
	if ns.ParentID != nil {
		return badRequest("Invalid group provided, must be top-level")
	}
	if !authz.CanGroup(actor, ns, level, authz.AdminGroupMember) {
		return badRequest("User unauthorized to remove member")
	}
	rows, err := s.hierarchyMemberships(ctx, ns, userID)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return badRequest("No member found for the given user_id")
	}
	for _, m := range rows {
		src := &Source{Kind: GroupKind, Group: m.Edges.Namespace}
		if m.Edges.Project != nil {
			src = &Source{Kind: ProjectKind, Project: m.Edges.Project}
		}
		if err := s.authorizeChange(ctx, actor, src, m, nil); err != nil {
			if isDenied(err) {
				return badRequest("Gitlab::Access::AccessDeniedError")
			}
			return err
		}
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		for _, m := range rows {
			if m.Edges.Namespace == nil {
				continue
			}
			if err := s.recheckLastOwner(ctx, c, m.Edges.Namespace, m); err != nil {
				if isDenied(err) {
					return badRequest("Gitlab::Access::AccessDeniedError")
				}
				return err
			}
		}
		if err := s.removeBelow(ctx, c, ns, userID, true); err != nil {
			return err
		}
		return s.left(ctx, userID, nil, &ns.ID)
	})
}
