// Package branches holds the branch operations of a project's repository (GitLab's branches
// API): listing with search and regex filters, reading one branch, creating and deleting
// branches, and deleting the branches merged into the default branch. Each branch is returned
// with the flags GitLab shows (merged, protected, default, developers_can_push,
// developers_can_merge, can_push), computed with a fixed number of queries and git processes
// however many branches a page holds. Git runs only through package git.
package branches

import (
	"context"

	"anvil/ent"
	"anvil/ent/protectedbranch"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/refs"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"
)

// Service is the branch service.
type Service struct {
	client    *ent.Client
	policy    *authz.Policy
	open      refs.Opener
	repos     *repos.Service
	protected *protectedbranches.Service
}

// New returns the branch service; pb decides protected branches.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, r *repos.Service, pb *protectedbranches.Service) *Service {
	wire.Require("branches", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("repos", r), wire.D("protected branches", pb))
	return &Service{client: client, policy: policy, open: refs.Opener{Projects: p, Policy: policy, Repos: r}, repos: r, protected: pb}
}

// Branch is a branch as GitLab's Branch entity shows it to one caller.
type Branch struct {
	Name   string
	Commit *git.Commit
	// Merged: the default branch contains the branch's commit and the branch is not at the
	// default branch's commit (GitLab's merged_branch_names).
	Merged bool
	// Protected: a protection rule covers the branch.
	Protected bool
	// Default: the branch is the repository's default branch (HEAD).
	Default bool
	// DevelopersCanPush and DevelopersCanMerge: a rule covering the branch lets the Developer
	// role push or merge (always false for unprotected branches, as in GitLab).
	DevelopersCanPush  bool
	DevelopersCanMerge bool
	// CanPush: the caller may push to the branch.
	CanPush bool
}

// can reports whether actor has ability on p; refusals are false, other failures errors.
func (s *Service) can(ctx context.Context, actor *authz.Actor, p *ent.Project, ability authz.Ability) (bool, error) {
	err := s.policy.Project(ctx, actor, p, ability)
	if err == nil {
		return true, nil
	}
	if _, ok := apperr.As(err); ok {
		return false, nil
	}
	return false, err
}

// rules returns the project's protection rules.
func (s *Service) rules(ctx context.Context, p *ent.Project) ([]*ent.ProtectedBranch, error) {
	return db.ClientFrom(ctx, s.client).ProtectedBranch.Query().
		Where(protectedbranch.ProjectID(p.ID)).Order(ent.Asc(protectedbranch.FieldID)).All(ctx)
}

// isProtected reports whether a rule covers branch.
func isProtected(rules []*ent.ProtectedBranch, branch string) bool {
	for _, r := range rules {
		if protectedbranches.Match(r.Name, branch) {
			return true
		}
	}
	return false
}
