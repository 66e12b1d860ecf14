// Package issues holds a project's issues: finders for the project, group and global lists
// (GitLab's IssuesFinder filters through internal/filter), reading, creating, updating and
// deleting issues, confidentiality, statistics, and the resource events (state, label,
// milestone) each change records in its own transaction.
package issues

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/wire"
)

// Activity receives the issue's activity in the change's transaction (ctx carries it): GitLab's
// events "created", "updated", "closed", "reopened" and "destroyed" with the issue as target.
// The events service implements it; until it exists the service is built with NoActivity.
type Activity interface {
	RecordIssue(ctx context.Context, actor *authz.Actor, issue *ent.Issue, action string) error
}

// NoActivity records nothing.
type NoActivity struct{}

// RecordIssue does nothing.
func (NoActivity) RecordIssue(context.Context, *authz.Actor, *ent.Issue, string) error { return nil }

// Service is the issue service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	groups   *groups.Service
	activity Activity
}

// New returns the issue service.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, g *groups.Service, activity Activity) *Service {
	wire.Require("issues", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("groups", g), wire.D("activity", activity))
	return &Service{client: client, policy: policy, projects: p, groups: g, activity: activity}
}
