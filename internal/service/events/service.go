// Package events is the activity feed (GitLab's events): Record writes an event inside the
// transaction of the change it tells of, and the Service lists them — the caller's own, a
// user's, a project's — showing only what the caller may see, and prunes old ones.
package events

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/wire"
)

// ProjectLookup finds a project for an actor with the actor's level in it (the projects
// service's LookupLevel).
type ProjectLookup interface {
	LookupLevel(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, authz.Level, bool, error)
}

// UserLookup finds a user by id or username for an actor, 404 User Not Found when the actor
// may not see it (the users service's FindRef).
type UserLookup interface {
	FindRef(ctx context.Context, actor *authz.Actor, ref string) (*ent.User, error)
}

// Service lists and prunes events.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects ProjectLookup
	users    UserLookup
}

// New returns the events service.
func New(client *ent.Client, policy *authz.Policy, projects ProjectLookup, users UserLookup) *Service {
	wire.Require("events", wire.D("client", client), wire.D("policy", policy),
		wire.D("projects", projects), wire.D("users", users))
	return &Service{client: client, policy: policy, projects: projects, users: users}
}
