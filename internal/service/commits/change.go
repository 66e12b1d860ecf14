package commits

import (
	"context"
	"errors"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/repos"
)

// ChangeInput is the body of POST .../commits/:sha/cherry_pick and .../revert.
type ChangeInput struct {
	// Branch receives the change (branch); it must exist.
	Branch *string
	// DryRun checks that the change applies without committing it (dry_run).
	DryRun bool
	// Message replaces the generated commit message (message; cherry-pick only).
	Message *string
}

// ChangeResult is the outcome of a cherry-pick or revert: the new commit, or nothing after a
// successful dry run.
type ChangeResult struct {
	Commit *Detail
}

// Error codes of a change that cannot be applied (the error_code of GitLab's answer).
const (
	CodeEmpty    = "empty"
	CodeConflict = "conflict"
)

// detail of a refused change: GitLab's wording, shared by cherry-pick and revert.
const changeDetail = "Can't perform this action automatically. It may have already been done, " +
	"or a more recent commit may have updated some of this content. Please perform this action locally."

// CherryPick applies the change of the commit sha names onto branch as a new commit authored
// by the caller, whose message records the source commit and credits its author
// (Co-authored-by). A change that is already present fails with error_code "empty", one that
// conflicts with "conflict" (400 {"message", "error_code"}).
func (s *Service) CherryPick(ctx context.Context, actor *authz.Actor, projectRef, sha string, in ChangeInput) (*ChangeResult, error) {
	return s.change(ctx, actor, projectRef, sha, in, true)
}

// Revert undoes the change of the commit sha names on branch with a new commit.
func (s *Service) Revert(ctx context.Context, actor *authz.Actor, projectRef, sha string, in ChangeInput) (*ChangeResult, error) {
	in.Message = nil // GitLab's revert takes no message
	return s.change(ctx, actor, projectRef, sha, in, false)
}

func (s *Service) change(ctx context.Context, actor *authz.Actor, projectRef, sha string, in ChangeInput, pick bool) (*ChangeResult, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Branch == nil:
		return nil, apperr.Missing("branch")
	case strings.TrimSpace(*in.Branch) == "":
		return nil, apperr.BadParam("branch is empty")
	}
	branch := *in.Branch
	if err := s.canPush(ctx, actor, p, branch, false); err != nil {
		return nil, err
	}
	c, err := resolveCommit(ctx, repo, sha)
	if err != nil {
		return nil, err
	}
	if git.ValidateBranchName(branch) != nil {
		return nil, apperr.Refused("The branch refname is invalid")
	}
	head, ok, err := repo.BranchTip(ctx, branch)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.NotFound("Branch")
	}
	opts := git.ChangeOptions{Commit: c.ID, Onto: head}
	var tree git.ObjectID
	if pick {
		tree, err = repo.CherryPickTree(ctx, opts)
	} else {
		tree, err = repo.RevertTree(ctx, opts)
	}
	if err != nil {
		return nil, changeErr(err, pick)
	}
	if in.DryRun {
		return &ChangeResult{}, nil
	}
	_, committer, err := identities(actor, "", "")
	if err != nil {
		return nil, err
	}
	message := changeMessage(c, pick)
	if in.Message != nil && *in.Message != "" {
		message = *in.Message
	}
	id, err := s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: branch, Old: head, Commit: git.CommitTreeOptions{
		Tree: tree, Parents: []git.ObjectID{head}, Message: message, Author: committer, Committer: committer,
	}})
	if err != nil {
		return nil, err
	}
	nc, err := repo.ReadCommit(ctx, string(id))
	if err != nil {
		return nil, err
	}
	return &ChangeResult{Commit: &Detail{Project: p, Commit: nc}}, nil
}

// changeMessage is GitLab's message of a cherry-pick (the original message, where it came
// from, and its author as co-author) or a revert.
func changeMessage(c *git.Commit, pick bool) string {
	if pick {
		return c.Message + "\n\n(cherry picked from commit " + string(c.ID) + ")" +
			"\n\nCo-authored-by: " + c.Author.Name + " <" + c.Author.Email + ">"
	}
	return "Revert \"" + strings.TrimSpace(title(c)) + "\"\n\nThis reverts commit " + string(c.ID)
}

// changeErr maps a change that does not apply to GitLab's answer with its error_code.
func changeErr(err error, pick bool) error {
	status := "Commit revert failed"
	if pick {
		status = "Commit cherry-pick failed"
	}
	var code string
	switch {
	case errors.Is(err, git.ErrEmptyChange):
		code = CodeEmpty
	case errors.Is(err, git.ErrConflict):
		code = CodeConflict
	default:
		return err
	}
	e := apperr.Refused(status + ": " + changeDetail)
	e.Code = code
	return e
}

// title is GitLab's commit title: the first line of the message, or "No commit message".
func title(c *git.Commit) string {
	if strings.TrimSpace(c.Message) == "" {
		return "No commit message"
	}
	return c.Subject()
}
