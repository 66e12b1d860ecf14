// Package members holds the membership operations of groups and projects: direct and inherited
// listings, billable members, adding, editing and removing members.
package members

import (
	"context"

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
	leaves   []LeaveObserver
}

// LeaveObserver is told, in the transaction that removes a user's membership of a project
// (projectID) or a group (groupID), that the user left it: the to-dos the user may no longer
// read go (GitLab's TodosDestroyer::EntityLeaveWorker). An error rolls the removal back.
type LeaveObserver interface {
	MemberLeft(ctx context.Context, userID int, projectID, groupID *int) error
}

// Observe adds an observer of removed memberships (wiring, before serving).
func (s *Service) Observe(o LeaveObserver) { s.leaves = append(s.leaves, o) }

// left tells the observers that userID left the project or group of src.
func (s *Service) left(ctx context.Context, userID int, projectID, groupID *int) error {
	for _, o := range s.leaves {
		if err := o.MemberLeft(ctx, userID, projectID, groupID); err != nil {
			return err
		}
	}
	return nil
}

// New returns the member service.
func New(client *ent.Client, policy *authz.Policy, g *groups.Service, p *projects.Service) *Service {
	wire.Require("members", wire.D("client", client), wire.D("policy", policy), wire.D("groups", g), wire.D("projects", p))
	return &Service{client: client, policy: policy, groups: g, projects: p}
}
