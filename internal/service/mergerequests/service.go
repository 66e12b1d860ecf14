// Package mergerequests holds a project's merge requests: finding one for an actor, creating,
// updating, closing, reopening and deleting them, subscriptions, participants and the issues
// a merge request closes. Lists (params, finder, list), merging, diff versions, approvals and
// the collaboration around a merge request build on this package in files of their own; every
// write is handed to the Observer in its transaction (events, system notes, to-dos, diff
// versions, webhooks).
package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/issues"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repos"
	"anvil/internal/service/resourceevents"
	"anvil/internal/service/wire"
)

// The actions of a Change, GitLab's names.
const (
	ActionCreated   = "created"
	ActionUpdated   = "updated"
	ActionClosed    = "closed"
	ActionReopened  = "reopened"
	ActionMerged    = "merged"
	ActionDestroyed = "destroyed"
)

// Change is one write to a merge request as its observers see it, inside the change's
// transaction (ctx carries it). Observers derive what they need from the two states: events,
// system notes (title, description, draft, assignees, reviewers, milestone, lock), to-dos,
// the first diff version (created), webhooks.
type Change struct {
	Action string            // created, updated, closed, reopened, merged or destroyed
	Before *ent.MergeRequest // before the write, edges loaded as Load does; nil when created
	After  *ent.MergeRequest // as written, read in the transaction with Load; nil when destroyed
	// Via is what merged it when no one asked for the merge: the commit of a push to the
	// target branch that brought its head in, or the merge request whose merge did (the state
	// event's source_commit or source_merge_request_id). Zero otherwise.
	Via resourceevents.Source
}

// Observer receives every merge request change in the change's transaction; an error rolls
// it back.
type Observer interface {
	MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch Change) error
}

// Observers hands a change to each observer in turn.
type Observers []Observer

// MergeRequestChanged calls every observer, stopping at the first error.
func (os Observers) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch Change) error {
	for _, o := range os {
		if err := o.MergeRequestChanged(ctx, actor, ch); err != nil {
			return err
		}
	}
	return nil
}

// Deps are the merge request service's collaborators.
type Deps struct {
	Client   *ent.Client
	Policy   *authz.Policy
	Projects *projects.Service
	Groups   *groups.Service
	// Issues finds the issues a merge request closes or mentions, as the actor may read them.
	Issues *issues.Service
	// Repos opens the source and target repositories (branch checks).
	Repos *repos.Service
	// Protected answers whether the actor may push to the target branch (user.can_merge).
	Protected *protectedbranches.Service
	// Observer is told of every change (see Change).
	Observer Observer
}

// Service is the merge request service.
type Service struct {
	client    *ent.Client
	policy    *authz.Policy
	projects  *projects.Service
	groups    *groups.Service
	issues    *issues.Service
	repos     *repos.Service
	protected *protectedbranches.Service
	observer  Observer
}

// New returns the merge request service.
func New(d Deps) *Service {
	wire.Require("mergerequests", wire.D("client", d.Client), wire.D("policy", d.Policy),
		wire.D("projects", d.Projects), wire.D("groups", d.Groups), wire.D("issues", d.Issues), wire.D("repos", d.Repos),
		wire.D("protected", d.Protected), wire.D("observer", d.Observer))
	return &Service{client: d.Client, policy: d.Policy, projects: d.Projects, groups: d.Groups, issues: d.Issues,
		repos: d.Repos, protected: d.Protected, observer: d.Observer}
}

// Client is the service's database client, for the packages that build on the merge request
// domain (lists, merges, diffs) and need the same one.
func (s *Service) Client() *ent.Client { return s.client }
