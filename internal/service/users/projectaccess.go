package users

import (
	"context"
	"slices"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// usersWithProjects returns the ids of users with access to at least one project (GitLab's
// project authorizations, for the without_projects filter): direct project members, owners of
// personal namespaces holding projects, members of groups whose subtree holds projects, and
// members of groups those projects or groups are shared with (inheritance included).
func (s *Service) usersWithProjects(ctx context.Context) ([]int, error) {
	c := db.ClientFrom(ctx, s.client)
	projectNS, err := c.Namespace.Query().Where(namespace.HasProjects()).All(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[int]bool{}
	var subtreePaths []string
	for _, ns := range projectNS {
		if ns.Kind == namespace.KindUser && ns.OwnerID != nil {
			ids[*ns.OwnerID] = true
		}
		subtreePaths = append(subtreePaths, authz.Ancestors(ns.FullPath)...)
	}
	groupIDs, err := c.Namespace.Query().
		Where(namespace.KindEQ(namespace.KindGroup), namespace.FullPathIn(dedupe(subtreePaths)...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	invited, err := s.invitedGroupPaths(ctx, c, groupIDs)
	if err != nil {
		return nil, err
	}
	invitedIDs, err := c.Namespace.Query().Where(namespace.FullPathIn(invited...)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	members, err := c.Member.Query().
		Where(member.State("active"), member.Or(
			member.ProjectIDNotNil(),
			member.NamespaceIDIn(append(groupIDs, invitedIDs...)...),
		)).
		Select(member.FieldUserID).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		ids[m.UserID] = true
	}
	out := make([]int, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	slices.Sort(out)
	return out, nil
}

// invitedGroupPaths returns the full paths, with ancestors, of the groups that projects or the
// groups groupIDs are shared with: their members reach those projects.
func (s *Service) invitedGroupPaths(ctx context.Context, c *ent.Client, groupIDs []int) ([]string, error) {
	var invited []*ent.Namespace
	projectShares, err := c.ProjectGroupLink.Query().WithGroup().All(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range projectShares {
		invited = append(invited, l.Edges.Group)
	}
	if len(groupIDs) > 0 {
		groupShares, err := c.GroupGroupLink.Query().
			Where(groupgrouplink.SharedGroupIDIn(groupIDs...)).WithSharedWithGroup().All(ctx)
		if err != nil {
			return nil, err
		}
		for _, l := range groupShares {
			invited = append(invited, l.Edges.SharedWithGroup)
		}
	}
	var paths []string
	for _, ns := range invited {
		if ns != nil {
			paths = append(paths, authz.Ancestors(ns.FullPath)...)
		}
	}
	return dedupe(paths), nil
}

// dedupe returns the distinct strings of in.
func dedupe(in []string) []string {
	slices.Sort(in)
	return slices.Compact(in)
}
