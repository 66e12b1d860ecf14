package namespaces

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/authz"
	"anvil/internal/pagination"
)

// List returns one offset page of the namespaces matching p for actor, by id ascending (GitLab
// pages this unordered relation by id), with what load asks for. Total is -1 above
// pagination.CountLimit.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, page pagination.Offset, load Load) (pagination.Result[*Entry], error) {
	res := pagination.Result[*Entry]{Page: page}
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return res, err
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	rows, err := q.Order(namespace.ByID()).WithOwner().Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	level, err := s.levels(ctx, actor)
	if err != nil {
		return res, err
	}
	if res.Items, err = s.entries(ctx, actor, rows, level, load); err != nil {
		return res, err
	}
	res.Total = pagination.BoundedTotal(n)
	return res, nil
}

// levels answers the actor's level in each namespace of a page from its scope, loaded once.
func (s *Service) levels(ctx context.Context, actor *authz.Actor) (func(*ent.Namespace) authz.Level, error) {
	if actor.IsAdmin() {
		return func(*ent.Namespace) authz.Level { return authz.Admin }, nil
	}
	scope, err := s.policy.Scope(ctx, actor, authz.Guest)
	if err != nil {
		return nil, err
	}
	return func(ns *ent.Namespace) authz.Level { return scope.GroupLevels[ns.ID] }, nil
}
