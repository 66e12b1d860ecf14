// Package members holds the membership operations of groups and projects: direct and inherited
// listings, billable members, adding, editing and removing members.
package members

import (
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/wire"
)

// Service is the member service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	groups   *groups.Service
	projects *projects.Service
}

// New returns the member service.
func New(client *ent.Client, policy *authz.Policy, g *groups.Service, p *projects.Service) *Service {
	wire.Require("members", wire.D("client", client), wire.D("policy", policy), wire.D("groups", g), wire.D("projects", p))
	return &Service{client: client, policy: policy, groups: g, projects: p}
}
