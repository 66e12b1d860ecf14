package commits

import (
	"context"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/repos"
)

// SubmoduleInput is PUT /projects/:id/repository/submodules/:submodule.
type SubmoduleInput struct {
	// Submodule is the submodule's full path (the percent-decoded path parameter).
	Submodule string
	// Branch receives the commit (branch); it must exist.
	Branch *string
	// CommitSHA is the full id the submodule moves to (commit_sha).
	CommitSHA *string
	// CommitMessage defaults to "Update submodule <path> with oid <sha>" (commit_message).
	CommitMessage *string
}

// UpdateSubmodule points an existing submodule at another commit with a new commit on branch
// and returns it. Refusals are 400 with GitLab's messages ("Invalid parameters", "Invalid
// submodule path", "The submodule <path> is already at <sha>", ...).
func (s *Service) UpdateSubmodule(ctx context.Context, actor *authz.Actor, projectRef string, in SubmoduleInput) (*Detail, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	var errs paramErrors
	if in.CommitSHA == nil {
		errs.add("commit_sha is missing")
	}
	if in.Branch == nil {
		errs.add("branch is missing")
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if err := s.policy.Project(ctx, actor, p, authz.PushCode); err != nil {
		return nil, err
	}
	branch, sha := *in.Branch, strings.ToLower(*in.CommitSHA)
	// The push check of every commit; GitLab's Submodules::UpdateService answers a refusal
	// with its message as a refused request rather than 403.
	if err := s.canPush(ctx, actor, p, branch, false); err != nil {
		if apperr.Is(err, apperr.KindForbidden) {
			return nil, apperr.Refused(msgPushIntoBranch)
		}
		return nil, err
	}
	has, err := repo.HasBranches(ctx)
	if err != nil {
		return nil, err
	}
	if !has {
		return nil, apperr.Refused("The repository is empty")
	}
	if in.Submodule == "" || !git.IsFullObjectID(sha) {
		return nil, apperr.Refused("Invalid parameters")
	}
	head, ok, err := repo.BranchTip(ctx, branch)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Refused(msgNotOnBranch)
	}
	if git.ValidatePath(in.Submodule) != nil {
		return nil, apperr.Refused("Invalid submodule path")
	}
	entry, err := repo.TreeEntryAt(ctx, string(head), in.Submodule)
	if err != nil {
		if isMissing(err) {
			return nil, apperr.Refused("Invalid submodule path")
		}
		return nil, err
	}
	if entry.Mode != "160000" {
		return nil, apperr.Refused("Invalid submodule path")
	}
	if string(entry.ID) == sha {
		return nil, apperr.Refused("The submodule " + in.Submodule + " is already at " + sha)
	}
	tree, err := repo.EditTree(ctx, string(head), []git.TreeAction{{
		Action: git.ActionSubmodule, Path: in.Submodule, SubmoduleCommit: git.ObjectID(sha),
	}})
	if err != nil {
		return nil, err
	}
	message := "Update submodule " + in.Submodule + " with oid " + sha
	if in.CommitMessage != nil && *in.CommitMessage != "" {
		message = *in.CommitMessage
	}
	_, committer, err := identities(actor, "", "")
	if err != nil {
		return nil, err
	}
	id, err := s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: branch, Old: head, Commit: git.CommitTreeOptions{
		Tree: tree, Parents: []git.ObjectID{head}, Message: message, Author: committer, Committer: committer,
	}})
	if err != nil {
		return nil, err
	}
	c, err := repo.ReadCommit(ctx, string(id))
	if err != nil {
		return nil, err
	}
	return &Detail{Project: p, Commit: c}, nil
}
