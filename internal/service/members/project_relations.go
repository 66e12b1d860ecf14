package members

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/groupcustomattribute"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/projectgrouplink"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/groups"
	"anvil/internal/service/users"

	"entgo.io/ent/dialect/sql"
)

// ProjectUsersParams are the filters of GET /projects/:id/users.
type ProjectUsersParams struct {
	// Search (search) matches the user's name or username, or the full public email.
	Search string
	// SkipUsers (skip_users) leaves these users out.
	SkipUsers []int
}

// ProjectUsers lists the users with access to the project ref (GitLab's project team users:
// direct members, members of its group and that group's ancestors, and of the groups the
// project or its ancestors are shared with, at Guest or above), by user id. 404 when the actor
// cannot read the project.
func (s *Service) ProjectUsers(ctx context.Context, actor *authz.Actor, ref string, p ProjectUsersParams, page pagination.Offset) (pagination.Result[*ent.User], error) {
	res := pagination.Result[*ent.User]{Page: page}
	src, err := s.resolve(ctx, actor, ProjectRef(ref), false)
	if err != nil {
		return res, err
	}
	all, err := s.QueryAll(ctx, actor, ListParams{Source: ProjectRef(strconv.Itoa(src.Project.ID))})
	if err != nil {
		return res, err
	}
	rows, err := all.Query.Select(member.FieldID, member.FieldUserID, member.FieldState).All(ctx)
	if err != nil {
		return res, err
	}
	ids := make([]int, 0, len(rows)+1)
	for _, m := range rows {
		if m.State == "active" && all.Levels[m.ID] >= int(authz.Guest) {
			ids = append(ids, m.UserID)
		}
	}
	if ns := src.Project.Edges.Namespace; ns.Kind == namespace.KindUser && ns.OwnerID != nil {
		ids = append(ids, *ns.OwnerID) // the owner of a personal namespace owns its projects
	}
	q := db.ClientFrom(ctx, s.client).User.Query().Where(user.IDIn(ids...))
	if p.Search != "" {
		q = q.Where(users.Search(p.Search, false))
	}
	if len(p.SkipUsers) > 0 {
		q = q.Where(user.IDNotIn(p.SkipUsers...))
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	if res.Items, err = q.Order(user.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx); err != nil {
		return res, err
	}
	res.Total = pagination.BoundedTotal(n)
	return res, nil
}

// ProjectGroupsParams are the filters of GET /projects/:id/groups.
type ProjectGroupsParams struct {
	// Search (search) matches the group's path or name.
	Search string
	// SkipGroups (skip_groups) leaves these groups out.
	SkipGroups []int
	// WithShared (with_shared) adds the groups the project is shared with; SharedVisibleOnly
	// (shared_visible_only) keeps those the caller may see, and SharedMinAccessLevel
	// (shared_min_access_level) those shared with at least this access.
	WithShared           bool
	SharedVisibleOnly    bool
	SharedMinAccessLevel int
	// CustomAttributes loads the groups' custom attributes (with_custom_attributes,
	// administrators only).
	CustomAttributes bool
}

// ProjectGroups lists the project's group and that group's ancestors, and with WithShared the
// groups it is shared with, newest first (GitLab's Projects::GroupsFinder); the groups come with
// their ancestors loaded (full_name). 404 when the actor cannot read the project.
func (s *Service) ProjectGroups(ctx context.Context, actor *authz.Actor, ref string, p ProjectGroupsParams, page pagination.Offset) (pagination.Result[*ent.Namespace], error) {
	src, err := s.resolve(ctx, actor, ProjectRef(ref), false)
	if err != nil {
		return pagination.Result[*ent.Namespace]{Page: page}, err
	}
	var sources []predicate.Namespace
	if ns := src.Project.Edges.Namespace; ns.Kind == namespace.KindGroup {
		sources = append(sources, namespace.FullPathIn(authz.Ancestors(ns.FullPath)...))
	}
	if p.WithShared {
		links := []predicate.ProjectGroupLink{projectgrouplink.ProjectID(src.Project.ID), projectLinkInForce()}
		if p.SharedMinAccessLevel > 0 {
			links = append(links, projectgrouplink.GroupAccessGTE(p.SharedMinAccessLevel))
		}
		shared := namespace.HasProjectSharesWith(links...)
		if p.SharedVisibleOnly {
			visible, err := s.policy.VisibleGroups(ctx, actor)
			if err != nil {
				return pagination.Result[*ent.Namespace]{Page: page}, err
			}
			shared = namespace.And(shared, visible)
		}
		sources = append(sources, shared)
	}
	q := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.KindEQ(namespace.KindGroup), namespace.Or(sources...))
	if len(sources) == 0 {
		q = q.Where(namespace.IDLT(0))
	}
	if len(p.SkipGroups) > 0 {
		q = q.Where(namespace.IDNotIn(p.SkipGroups...))
	}
	if pred := groups.Search(p.Search, false); pred != nil {
		q = q.Where(pred)
	}
	return s.groupPage(ctx, actor, q, p.CustomAttributes, page)
}

// InvitedGroupsParams are the filters of GET /projects/:id/invited_groups.
type InvitedGroupsParams struct {
	// Relations (relation) are "direct" (groups the project is shared with) and "inherited"
	// (groups the project's group or its ancestors are shared with); none or both mean both.
	Relations []string
	// Search (search) matches the group's full path or name.
	Search string
	// MinAccessLevel (min_access_level) keeps groups where the caller's own level reaches it.
	MinAccessLevel int
	// CustomAttributes loads the groups' custom attributes (administrators only).
	CustomAttributes bool
}

// InvitedGroups lists the groups the project ref is shared with, directly or through its
// group's ancestors, that the actor may see, newest first (GitLab's InvitedGroupsFinder).
func (s *Service) InvitedGroups(ctx context.Context, actor *authz.Actor, ref string, p InvitedGroupsParams, page pagination.Offset) (pagination.Result[*ent.Namespace], error) {
	res := pagination.Result[*ent.Namespace]{Page: page}
	src, err := s.resolve(ctx, actor, ProjectRef(ref), false)
	if err != nil {
		return res, err
	}
	direct, inherited := len(p.Relations) == 0, len(p.Relations) == 0
	for _, r := range p.Relations {
		direct = direct || r == "direct"
		inherited = inherited || r == "inherited"
	}
	var sources []predicate.Namespace
	if direct {
		sources = append(sources, namespace.HasProjectSharesWith(projectgrouplink.ProjectID(src.Project.ID), projectLinkInForce()))
	}
	if ns := src.Project.Edges.Namespace; inherited && ns.Kind == namespace.KindGroup {
		sources = append(sources, namespace.HasSharesReceivedWith(linkInForce(),
			groupgrouplink.HasSharedGroupWith(namespace.FullPathIn(authz.Ancestors(ns.FullPath)...))))
	}
	if len(sources) == 0 {
		sources = append(sources, namespace.IDLT(0))
	}
	visible, err := s.policy.VisibleGroups(ctx, actor)
	if err != nil {
		return res, err
	}
	q := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.Or(sources...), visible)
	if pred := groups.Search(p.Search, true); pred != nil {
		q = q.Where(pred)
	}
	if p.MinAccessLevel > 0 {
		atLeast, err := s.policy.GroupsWithLevel(ctx, actor, authz.Level(p.MinAccessLevel))
		if err != nil {
			return res, err
		}
		q = q.Where(atLeast)
	}
	return s.groupPage(ctx, actor, q, p.CustomAttributes, page)
}

// groupPage counts q and reads one page of it, newest first, with the ancestors of each group
// and, for administrators who ask, their custom attributes.
func (s *Service) groupPage(ctx context.Context, actor *authz.Actor, q *ent.NamespaceQuery, attrs bool, page pagination.Offset) (pagination.Result[*ent.Namespace], error) {
	res := pagination.Result[*ent.Namespace]{Page: page}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	q = q.Order(namespace.ByID(sqlDesc())).Offset(page.Skip()).Limit(page.Limit())
	if attrs && authz.CanUser(actor, nil, authz.ReadCustomAttribute) {
		q = q.WithCustomAttributes(func(q *ent.GroupCustomAttributeQuery) { q.Order(groupcustomattribute.ByID()) })
	}
	rows, err := q.All(ctx)
	if err != nil {
		return res, err
	}
	if err := s.groups.WithAncestors(ctx, rows...); err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	return res, nil
}

// sqlDesc is the descending order option of ent's By helpers.
func sqlDesc() sql.OrderTermOption { return sql.OrderDesc() }
