package protectedbranches

import (
	"context"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
)

// GitLab's refusals of ref updates, as a push shows them after "GitLab: " (and the branch APIs
// answer some of them).
const (
	MsgPushProtected      = "You are not allowed to push code to protected branches on this project."
	MsgForcePushProtected = "You are not allowed to force push code to a protected branch on this project."
	MsgDeleteProtectedWeb = "You can only delete protected branches using the web interface."
	MsgDeleteProtected    = "You are not allowed to delete protected branches from this project. " +
		"Only a project maintainer or owner can delete a protected branch."
	MsgDeleteDefault      = "The default branch of a project cannot be deleted."
	MsgCreateProtected    = "You are not allowed to create protected branches on this project."
	MsgCreateProtectedWeb = "You can only create protected branches using the web interface and API."
	MsgHexBranchName      = "You cannot create a branch with a 40-character hexadecimal branch name."
	// MsgPushIntoBranch is the API's refusal (403) of a commit or file change on a branch the
	// caller may not push to.
	MsgPushIntoBranch = "You are not allowed to push into this branch"
)

// state loads what the checks need: the project's rules, whether its repository is empty and
// the default protection.
func (s *Service) state(ctx context.Context, p *ent.Project) ([]*ent.ProtectedBranch, bool, Protection, error) {
	rules, err := s.rules(ctx, p.ID)
	if err != nil {
		return nil, false, Protection{}, err
	}
	def, err := s.DefaultBranchProtection(ctx)
	if err != nil {
		return nil, false, def, err
	}
	return rules, s.projects.EmptyRepository(ctx, p), def, nil
}

// access evaluates one branch for actor.
func (s *Service) access(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) (branchAccess, error) {
	rules, empty, def, err := s.state(ctx, p)
	if err != nil {
		return branchAccess{}, err
	}
	a, err := s.newAccessor(ctx, actor, p)
	if err != nil {
		return branchAccess{}, err
	}
	return a.branch(ctx, rules, branch, empty, def)
}

// IsProtected reports whether a rule of the project covers branch (GitLab's "protected" flag
// of a branch). An empty repository's branches count as protected only for pushes, not here.
func (s *Service) IsProtected(ctx context.Context, p *ent.Project, branch string) (bool, error) {
	rules, err := s.rules(ctx, p.ID)
	if err != nil {
		return false, err
	}
	return len(matching(rules, branch)) > 0, nil
}

// CanPush checks that actor may move branch of p through the API (commit, file change, branch
// creation): push access to the project and, for a protected branch, a push rule that admits
// the actor. Refusal: 403 "You are not allowed to push into this branch". The caller has
// already found p with authz.PushCode or a weaker ability.
func (s *Service) CanPush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error {
	acc, err := s.access(ctx, actor, p, branch)
	if err != nil {
		return err
	}
	if !acc.push {
		return apperr.Forbidden(MsgPushIntoBranch)
	}
	return nil
}

// CanForcePush checks that actor may rewrite the history of branch (a non-fast-forward update):
// CanPush, and for a protected branch a rule with allow_force_push. Refusal: 403 with
// MsgForcePushProtected.
func (s *Service) CanForcePush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error {
	acc, err := s.access(ctx, actor, p, branch)
	if err != nil {
		return err
	}
	if !acc.push {
		return apperr.Forbidden(MsgPushIntoBranch)
	}
	if acc.protected && !acc.forcePush {
		return apperr.Forbidden(MsgForcePushProtected)
	}
	return nil
}

// CanDelete checks that actor may delete branch through the API: a protected branch needs a
// Maintainer (400 with MsgDeleteProtected otherwise, as GitLab's hook answers), any other branch
// push access (403 "You are not allowed to push into this branch"). Deleting the default
// branch is refused separately by the caller (MsgDeleteDefault).
func (s *Service) CanDelete(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error {
	acc, err := s.access(ctx, actor, p, branch)
	if err != nil {
		return err
	}
	switch {
	case acc.protected && !acc.deleteByUI:
		return apperr.Refused(MsgDeleteProtected)
	case !acc.protected && !acc.push:
		return apperr.Forbidden(MsgPushIntoBranch)
	}
	return nil
}
