// Package namespaces holds the namespace operations: the listing of the namespaces a user
// belongs to (personal namespace and groups), one namespace by id or path, and whether a path
// is free. Groups and personal namespaces are both ent.Namespace rows; the group operations
// live in the groups package.
package namespaces

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/members"
	"anvil/internal/service/wire"
)

// Service is the namespace service.
type Service struct {
	client  *ent.Client
	policy  *authz.Policy
	members *members.Service
}

// New returns the namespace service; members counts billable members.
func New(client *ent.Client, policy *authz.Policy, m *members.Service) *Service {
	wire.Require("namespaces", wire.D("client", client), wire.D("policy", policy), wire.D("members", m))
	return &Service{client: client, policy: policy, members: m}
}

// Lookup finds a namespace (group or personal) by id or full path, without permission checks:
// 404 Namespace Not Found. A path matches regardless of case, as GitLab's routes do.
func (s *Service) Lookup(ctx context.Context, ref string) (*ent.Namespace, error) {
	q := db.ClientFrom(ctx, s.client).Namespace.Query().WithOwner()
	if id, err := strconv.Atoi(ref); err == nil {
		q = q.Where(namespace.ID(id))
	} else {
		q = q.Where(namespace.FullPathEqualFold(ref))
	}
	ns, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Namespace")
	}
	return ns, err
}

// Find returns the namespace ref names (id or full path) when the actor may read it through a
// membership (GitLab's read_namespace_via_membership, which GET /namespaces/:id and transfers
// ask): administrators, the owner of a personal namespace, and users with at least Guest in a
// group (directly, inherited or through a share). Anything else is 404 Namespace Not Found,
// public groups included.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref string, load Load) (*Entry, error) {
	ns, err := s.Lookup(ctx, ref)
	if err != nil {
		return nil, err
	}
	level, err := s.level(ctx, actor, ns)
	if err != nil {
		return nil, err
	}
	if !authz.CanGroup(actor, ns, level, authz.ReadNamespaceViaMembership) {
		return nil, apperr.NotFound("Namespace")
	}
	entries, err := s.entries(ctx, actor, []*ent.Namespace{ns}, func(*ent.Namespace) authz.Level { return level }, load)
	if err != nil {
		return nil, err
	}
	return entries[0], nil
}

// FindReadable returns the namespace at fullPath when the actor may read it: a group it may
// read (public and internal groups included), or a personal namespace it owns (GraphQL's
// namespace(fullPath:)). Anything else is 404 Namespace Not Found.
func (s *Service) FindReadable(ctx context.Context, actor *authz.Actor, fullPath string) (*ent.Namespace, error) {
	ns, err := s.Lookup(ctx, fullPath)
	if err != nil {
		return nil, err
	}
	if ns.Kind == namespace.KindUser {
		if actor.IsAdmin() || authz.OwnsPersonalNamespace(ns, actor.UserID()) {
			return ns, nil
		}
		return nil, apperr.NotFound("Namespace")
	}
	_, readable, err := s.policy.GroupLevel(ctx, actor, ns)
	if err != nil {
		return nil, err
	}
	if !readable {
		return nil, apperr.NotFound("Namespace")
	}
	return ns, nil
}

// level is the actor's level in ns: Admin for administrators, Owner in its own personal
// namespace, the effective group level otherwise.
func (s *Service) level(ctx context.Context, actor *authz.Actor, ns *ent.Namespace) (authz.Level, error) {
	if actor.IsAdmin() {
		return authz.Admin, nil
	}
	return s.policy.GroupAccess(ctx, actor, ns)
}
