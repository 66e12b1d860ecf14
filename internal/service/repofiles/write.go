package repofiles

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/repos"
)

// WriteInput is one file change committed to a branch (POST, PUT and DELETE
// /projects/:id/repository/files/:file_path), in GitLab's parameter names.
type WriteInput struct {
	// Path is the file_path parameter, percent-decoded once.
	Path string
	// Branch receives the commit (branch); it is created from StartBranch when it differs.
	Branch string
	// StartBranch is where the change starts (start_branch); "" means Branch.
	StartBranch   string
	CommitMessage string
	// Content is the new content (content), decoded per Encoding ("text" or "base64").
	Content  string
	Encoding string
	// AuthorName and AuthorEmail default to the caller's name and commit email.
	AuthorName, AuthorEmail string
	// LastCommitID, when set, must be the last commit that changed the file on StartBranch
	// (last_commit_id): a file changed since is refused.
	LastCommitID string
	// ExecuteFilemode sets or clears the executable bit (execute_filemode); nil keeps it.
	ExecuteFilemode *bool
}

// The refusals of a file change, in GitLab's words (answered 400 {"message": ...}).
const (
	msgFileExists      = "A file with this name already exists"
	msgFileMissing     = "A file with this name doesn't exist"
	msgDirectoryExists = "A directory with this name already exists"
	msgUpdateChanged   = "You are attempting to update a file that has changed since you started editing it."
	msgDeleteChanged   = "You are attempting to delete a file that has been previously updated."
	msgNotOnBranch     = "You can only create or edit files when you are on a branch"
	msgPushIntoBranch  = "You are not allowed to push into this branch"
)

// CreateFile commits a new file; an existing one is refused.
func (s *Service) CreateFile(ctx context.Context, actor *authz.Actor, projectRef string, in WriteInput) (git.ObjectID, error) {
	return s.commitFile(ctx, actor, projectRef, in, git.ActionCreate)
}

// UpdateFile commits new content for an existing file.
func (s *Service) UpdateFile(ctx context.Context, actor *authz.Actor, projectRef string, in WriteInput) (git.ObjectID, error) {
	return s.commitFile(ctx, actor, projectRef, in, git.ActionUpdate)
}

// DeleteFile commits the removal of an existing file.
func (s *Service) DeleteFile(ctx context.Context, actor *authz.Actor, projectRef string, in WriteInput) (git.ObjectID, error) {
	return s.commitFile(ctx, actor, projectRef, in, git.ActionDelete)
}

// commitFile writes one commit with one file action and moves the branch to it with a
// compare-and-swap on its old value, so a concurrent update is refused rather than lost.
func (s *Service) commitFile(ctx context.Context, actor *authz.Actor, projectRef string, in WriteInput, action git.TreeActionType) (git.ObjectID, error) {
	filePath, err := checkFilePath(in.Path, false)
	if err != nil {
		return "", err
	}
	content, err := decodeContent(in, action)
	if err != nil {
		return "", err
	}
	p, repo, err := s.open(ctx, actor, projectRef, authz.PushCode)
	if err != nil {
		return "", err
	}
	target, err := s.prepareBranch(ctx, actor, p, repo, in)
	if err != nil {
		return "", err
	}
	if err := s.checkLastCommit(ctx, p, repo, target.base, filePath, in, action); err != nil {
		return "", err
	}
	actions := []git.TreeAction{{Action: action, Path: filePath, Content: content}}
	if in.ExecuteFilemode != nil && action != git.ActionDelete && (action == git.ActionUpdate || *in.ExecuteFilemode) {
		actions = append(actions, git.TreeAction{Action: git.ActionChmod, Path: filePath, Executable: *in.ExecuteFilemode})
	}
	tree, err := repo.EditTree(ctx, string(target.base), actions)
	if err != nil {
		return "", actionErr(err)
	}
	author, committer, err := identities(actor, in)
	if err != nil {
		return "", err
	}
	opts := git.CommitTreeOptions{Tree: tree, Message: in.CommitMessage, Author: author, Committer: committer}
	if !target.base.IsZero() {
		opts.Parents = []git.ObjectID{target.base}
	}
	return s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: in.Branch, Commit: opts, Old: target.old, WasEmpty: target.empty})
}

// branchTarget is where a file commit goes: base is the parent ("" in an empty repository),
// old the branch's current value (ZeroOID when the commit creates it).
type branchTarget struct {
	base, old git.ObjectID
	empty     bool
}

// prepareBranch checks the branch rules of Commits::CreateService, in its order: push access
// to the branch, the start branch exists, a new branch does not, its name is valid.
func (s *Service) prepareBranch(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, in WriteInput) (branchTarget, error) {
	t := branchTarget{old: git.ZeroOID}
	start := in.StartBranch
	if start == "" {
		start = in.Branch
	}
	// Protected branches: the one call site that guards file commits.
	if err := s.branches.CanPush(ctx, actor, p, in.Branch); err != nil {
		if e, ok := apperr.As(err); ok && e.Kind == apperr.KindForbidden {
			return t, apperr.Refused(msgPushIntoBranch)
		}
		return t, err
	}
	has, err := repo.HasBranches(ctx)
	if err != nil {
		return t, err
	}
	t.empty = !has
	if t.empty {
		if git.ValidateBranchName(in.Branch) != nil {
			return t, badBranchName(in.Branch)
		}
		return t, nil
	}
	startTip, ok, err := repo.BranchTip(ctx, start)
	if err != nil {
		return t, err
	}
	if !ok {
		return t, apperr.Refused(msgNotOnBranch)
	}
	t.base = startTip
	if start == in.Branch {
		// The parent and the expected old value must be the same read: with two reads, a commit
		// landing in between would be overwritten.
		t.old = startTip
		return t, nil
	}
	// A new branch: t.old stays ZeroOID, so the update fails if the branch appears meanwhile.
	_, exists, err := repo.BranchTip(ctx, in.Branch)
	if err != nil {
		return t, err
	}
	if exists {
		return t, apperr.Refused("A branch called '" + in.Branch + "' already exists. Switch to that branch in order to make changes")
	}
	if git.ValidateBranchName(in.Branch) != nil {
		return t, badBranchName(in.Branch)
	}
	return t, nil
}

func badBranchName(name string) error {
	return apperr.Refused("Something went wrong when we tried to create '" + name + "' for you: Branch name is invalid")
}

// checkLastCommit refuses an update or deletion when last_commit_id is given and the file has
// changed since: its last commit on the start branch differs. A file without history passes
// (the tree action reports it missing).
func (s *Service) checkLastCommit(ctx context.Context, p *ent.Project, repo *git.Repository, base git.ObjectID, filePath string, in WriteInput, action git.TreeActionType) error {
	if in.LastCommitID == "" || base.IsZero() || action == git.ActionCreate {
		return nil
	}
	last, err := s.repos.LastCommitForPath(ctx, p, repo, base, filePath)
	if err != nil {
		if errors.Is(err, git.ErrPathNotFound) {
			return nil
		}
		return err
	}
	if string(last) == in.LastCommitID {
		return nil
	}
	if action == git.ActionDelete {
		return apperr.Refused(msgDeleteChanged)
	}
	return apperr.Refused(msgUpdateChanged)
}

// decodeContent returns the bytes to write: nil for a deletion, the content decoded per its
// encoding otherwise. GitLab's base64 decoding skips characters outside the alphabet.
func decodeContent(in WriteInput, action git.TreeActionType) ([]byte, error) {
	if action == git.ActionDelete {
		return nil, nil
	}
	if in.Encoding != "base64" {
		return []byte(in.Content), nil
	}
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '+', r == '/':
			return r
		}
		return -1
	}, in.Content)
	b, err := base64.RawStdEncoding.DecodeString(clean)
	if err != nil {
		return nil, apperr.Invalid("content")
	}
	return b, nil
}

// identities returns the author (the given name and email, each defaulting to the caller's)
// and the committer (the caller, with their commit email).
func identities(actor *authz.Actor, in WriteInput) (git.Signature, git.Signature, error) {
	u := actor.User
	email := u.Email
	if u.CommitEmail != "" {
		email = u.CommitEmail
	}
	committer := git.Signature{Name: u.Name, Email: email}
	author := committer
	if in.AuthorName != "" {
		author.Name = in.AuthorName
	}
	if in.AuthorEmail != "" {
		author.Email = in.AuthorEmail
	}
	if git.ValidateIdentity(author.Name, author.Email) != nil {
		return author, committer, apperr.Refused("Invalid author")
	}
	if git.ValidateIdentity(committer.Name, committer.Email) != nil {
		return author, committer, apperr.Refused("Invalid committer")
	}
	return author, committer, nil
}

// actionErr maps a refused tree action to GitLab's message.
func actionErr(err error) error {
	switch {
	case errors.Is(err, git.ErrFileExists):
		return apperr.Refused(msgFileExists)
	case errors.Is(err, git.ErrFileNotFound):
		return apperr.Refused(msgFileMissing)
	case errors.Is(err, git.ErrDirectoryExists):
		return apperr.Refused(msgDirectoryExists)
	case errors.Is(err, git.ErrInvalidPath):
		return errFilePath
	}
	return err
}
