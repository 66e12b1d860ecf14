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

// Change is one write to an issue as its observers see it, inside the change's transaction
// (ctx carries it). Observers derive what they need from the two states: GitLab's events
// ("created", "updated", "closed", "reopened", "destroyed"), system notes (title, description,
// assignees, confidentiality, lock), to-dos (assignments, mentions), webhooks.
type Change struct {
	Action string     // created, updated, closed, reopened or destroyed
	Before *ent.Issue // the issue before the write, edges loaded as Load does; nil when created
	After  *ent.Issue // the issue as written, read in the transaction with Load; nil when destroyed
}

// Observer receives every issue change in the change's transaction; an error rolls it back.
type Observer interface {
	IssueChanged(ctx context.Context, actor *authz.Actor, ch Change) error
}

// Observers hands a change to each observer in turn.
type Observers []Observer

// IssueChanged calls every observer, stopping at the first error.
func (os Observers) IssueChanged(ctx context.Context, actor *authz.Actor, ch Change) error {
	for _, o := range os {
		if err := o.IssueChanged(ctx, actor, ch); err != nil {
			return err
		}
	}
	return nil
}

// Service is the issue service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	groups   *groups.Service
	observer Observer
}

// New returns the issue service.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, g *groups.Service, observer Observer) *Service {
	wire.Require("issues", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("groups", g), wire.D("observer", observer))
	return &Service{client: client, policy: policy, projects: p, groups: g, observer: observer}
}
