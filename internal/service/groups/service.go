// Package groups holds the group operations: create, find, list, update, delete, subgroups,
// descendants and sharing a group with another group.
package groups

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Service is the group service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	settings *settings.Service
	projects ProjectDeleter
}

// ProjectDeleter removes a deleted group's projects (implemented by the repos service).
type ProjectDeleter interface {
	// DeleteProjects removes the given projects (already marked pending_delete) inside a group
	// deletion's transaction, so the project domain's own clean-up runs, and their
	// repositories once it commits.
	DeleteProjects(ctx context.Context, projectIDs []int) error
}

// New returns the group service; projects removes the projects of deleted groups.
func New(client *ent.Client, policy *authz.Policy, st *settings.Service, projects ProjectDeleter) *Service {
	wire.Require("groups", wire.D("client", client), wire.D("policy", policy), wire.D("settings", st), wire.D("projects", projects))
	return &Service{client: client, policy: policy, settings: st, projects: projects}
}

// Lookup finds a group by id or full path without permission checks; 404 Group Not Found.
func (s *Service) Lookup(ctx context.Context, ref string) (*ent.Namespace, error) {
	q := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.KindEQ(namespace.KindGroup))
	if id, err := strconv.Atoi(ref); err == nil {
		q = q.Where(namespace.ID(id))
	} else {
		q = q.Where(namespace.FullPathEqualFold(ref))
	}
	ns, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Group")
	}
	return ns, err
}

// Find returns the group ref names (id or URL-decoded full path) if the actor has ability on
// it: 404 Group Not Found when it cannot see it, 403 when it can see it but not act.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (*ent.Namespace, error) {
	ns, err := s.Lookup(ctx, ref)
	if err != nil {
		return nil, err
	}
	if err := s.policy.Group(ctx, actor, ns, ability); err != nil {
		return nil, err
	}
	return ns, nil
}

// itoa formats an id as a group reference.
func itoa(id int) string { return strconv.Itoa(id) }
