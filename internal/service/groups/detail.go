package groups

import (
	"context"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/namespace"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Detail is a group with what its detail shape (GET /groups/:id) shows beyond the Group shape.
type Detail struct {
	// Group has its ancestors loaded through Edges.Parent (full_name).
	Group *ent.Namespace
	// SharedWith are the shares of Group with groups the actor may see, with the invited group
	// loaded (shared_with_groups).
	SharedWith []*ent.GroupGroupLink
	// CanAdmin is the actor's admin_group ability, which reveals runners_token.
	CanAdmin bool
}

// Get returns the group ref as the actor may see it, with what load asks for; 404 Group Not
// Found when it cannot.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, ref string, load Load) (*Detail, error) {
	ns, err := s.Find(ctx, actor, ref, authz.ReadGroup)
	if err != nil {
		return nil, err
	}
	if err := s.load(ctx, actor, load, ns); err != nil {
		return nil, err
	}
	return s.Detail(ctx, actor, ns)
}

// Detail loads what the detail shape of ns needs for actor (no permission check: ns was
// found through Find or just written by the actor).
func (s *Service) Detail(ctx context.Context, actor *authz.Actor, ns *ent.Namespace) (*Detail, error) {
	if err := s.WithAncestors(ctx, ns); err != nil {
		return nil, err
	}
	visible, err := s.policy.VisibleGroups(ctx, actor)
	if err != nil {
		return nil, err
	}
	links, err := db.ClientFrom(ctx, s.client).GroupGroupLink.Query().
		Where(groupgrouplink.SharedGroupID(ns.ID), groupgrouplink.HasSharedWithGroupWith(visible)).
		WithSharedWithGroup().Order(groupgrouplink.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	level, _, err := s.policy.GroupLevel(ctx, actor, ns)
	if err != nil {
		return nil, err
	}
	return &Detail{Group: ns, SharedWith: links, CanAdmin: authz.CanGroup(actor, ns, level, authz.AdminGroup)}, nil
}

// WithAncestors loads the ancestors of each namespace into Edges.Parent, up to the top-level
// namespace, with one query, so presenters can build full names without the database.
func (s *Service) WithAncestors(ctx context.Context, nss ...*ent.Namespace) error {
	want := map[string]bool{}
	for _, ns := range nss {
		for p := parentPath(ns.FullPath); p != ""; p = parentPath(p) {
			want[p] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	rows, err := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.FullPathIn(paths...)).All(ctx)
	if err != nil {
		return err
	}
	byPath := make(map[string]*ent.Namespace, len(rows))
	for _, r := range rows {
		byPath[r.FullPath] = r
	}
	link := func(ns *ent.Namespace) {
		if p := parentPath(ns.FullPath); p != "" {
			ns.Edges.Parent = byPath[p]
		}
	}
	for _, r := range rows {
		link(r)
	}
	for _, ns := range nss {
		link(ns)
	}
	return nil
}
