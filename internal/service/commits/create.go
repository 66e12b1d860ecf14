package commits

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/repos"
)

// CreateInput is POST /projects/:id/repository/commits, in GitLab's names. Nil fields were not
// given.
type CreateInput struct {
	// Branch receives the commit (branch); it is created when StartBranch or StartSHA is given.
	Branch *string
	// CommitMessage is stored as given (commit_message).
	CommitMessage *string
	// Actions are the file changes, applied in order (actions[]).
	Actions []Action
	// StartBranch (start_branch) or StartSHA (start_sha, a full id) is where a new branch
	// starts; StartProject (start_project, id or full path) is the fork's source it is read
	// from.
	StartBranch, StartSHA, StartProject *string
	// AuthorEmail and AuthorName default to the caller's (author_email, author_name).
	AuthorEmail, AuthorName *string
	// Stats adds the commit's line counts to the answer (stats); nil means true.
	Stats *bool
	// Force overwrites an existing branch with a commit based on StartBranch or StartSHA
	// (force).
	Force bool
}

// check validates the parameters as GitLab's declarations do, before anything is read.
func (in CreateInput) check() ([]git.TreeAction, error) {
	var errs paramErrors
	switch {
	case in.Branch == nil:
		errs.add("branch is missing")
	case strings.TrimSpace(*in.Branch) == "":
		errs.add("branch is empty")
	}
	switch {
	case in.CommitMessage == nil:
		errs.add("commit_message is missing")
	case strings.TrimSpace(*in.CommitMessage) == "":
		errs.add("commit_message is empty")
	}
	switch {
	case in.Actions == nil:
		errs.add("actions is missing")
	case len(in.Actions) == 0:
		errs.add("actions is empty")
	}
	for i, a := range in.Actions {
		a.check(i, &errs)
	}
	if in.StartBranch != nil && in.StartSHA != nil {
		errs.add("start_branch, start_sha are mutually exclusive")
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	out := make([]git.TreeAction, len(in.Actions))
	for i, a := range in.Actions {
		t, err := a.treeAction(i)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// target is where a commit goes: base is its parent ("" in an empty repository), old the
// branch's current value (ZeroOID when the commit creates the branch).
type target struct {
	base, old git.ObjectID
	empty     bool
}

// Create commits the actions to a branch and returns the new commit. The branch moves with a
// compare-and-swap on the value its parent was read from, so of concurrent writers one wins and
// the others get 400 "Could not update refs/heads/<branch>. Please refresh and try again."
// instead of silently dropping a commit.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, projectRef string, in CreateInput) (*Detail, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	actions, err := in.check()
	if err != nil {
		return nil, err
	}
	startRepo := repo
	crossProject := false
	if in.StartProject != nil && *in.StartProject != "" {
		sp, sr, err := s.startProject(ctx, actor, p, *in.StartProject)
		if err != nil {
			return nil, err
		}
		crossProject = sp.ID != p.ID
		startRepo = sr
	}
	branch := *in.Branch
	if err := s.canPush(ctx, actor, p, branch, false); err != nil {
		return nil, err
	}
	t, err := s.createTarget(ctx, actor, p, repo, startRepo, crossProject, in)
	if err != nil {
		return nil, err
	}
	for i, a := range in.Actions {
		if err := s.checkFileStatus(ctx, p, repo, t.base, a, actions[i]); err != nil {
			return nil, err
		}
	}
	tree, err := repo.EditTree(ctx, string(t.base), actions)
	if err != nil {
		return nil, actionErr(err)
	}
	author, committer, err := identities(actor, deref(in.AuthorName), deref(in.AuthorEmail))
	if err != nil {
		return nil, err
	}
	opts := git.CommitTreeOptions{Tree: tree, Message: *in.CommitMessage, Author: author, Committer: committer}
	if !t.base.IsZero() {
		opts.Parents = []git.ObjectID{t.base}
	}
	id, err := s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: branch, Commit: opts, Old: t.old, WasEmpty: t.empty})
	if err != nil {
		return nil, err
	}
	c, err := repo.ReadCommit(ctx, string(id))
	if err != nil {
		return nil, err
	}
	return s.detail(ctx, p, repo, c, in.Stats == nil || *in.Stats)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// startProject checks start_project: a project the caller can read whose code it may read and
// that the target was forked from.
func (s *Service) startProject(ctx context.Context, actor *authz.Actor, p *ent.Project, ref string) (*ent.Project, *git.Repository, error) {
	sp, err := s.projects.Find(ctx, actor, ref, authz.ReadProject)
	if err != nil {
		return nil, nil, err
	}
	if sp.ID == p.ID {
		repo, err := s.repos.Repository(sp)
		return sp, repo, err
	}
	canRead := s.policy.Project(ctx, actor, sp, authz.DownloadCode) == nil
	if !canRead || p.ForkedFromID == nil || *p.ForkedFromID != sp.ID {
		name, err := s.nameWithNamespace(ctx, sp)
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, apperr.Forbidden("Project is not included in the fork network for " + name)
	}
	repo, err := s.repos.Repository(sp)
	if err != nil {
		return nil, nil, err
	}
	return sp, repo, nil
}

// createTarget applies Commits::CreateService's branch rules in its order: start_sha is a
// full id that exists, the start branch exists, a new branch does not (unless force), and a new
// branch's name is valid.
func (s *Service) createTarget(ctx context.Context, actor *authz.Actor, p *ent.Project, repo, startRepo *git.Repository, crossProject bool, in CreateInput) (target, error) {
	branch := *in.Branch
	t := target{old: git.ZeroOID}
	has, err := repo.HasBranches(ctx)
	if err != nil {
		return t, err
	}
	t.empty = !has
	startBranch := branch
	if in.StartBranch != nil && *in.StartBranch != "" {
		startBranch = *in.StartBranch
	}
	switch {
	case in.StartSHA != nil:
		sha := strings.ToLower(*in.StartSHA)
		if !git.IsFullObjectID(sha) {
			return t, apperr.Refused("Invalid start_sha '" + *in.StartSHA + "'")
		}
		c, err := startRepo.ReadCommit(ctx, sha)
		if err != nil {
			if isMissing(err) {
				return t, apperr.Refused("Cannot find start_sha '" + *in.StartSHA + "'")
			}
			return t, err
		}
		t.base = c.ID
	default:
		startHas, err := startRepo.HasBranches(ctx)
		if err != nil {
			return t, err
		}
		if startHas {
			tip, ok, err := startRepo.BranchTip(ctx, startBranch)
			if err != nil {
				return t, err
			}
			if !ok {
				return t, apperr.Refused(msgNotOnBranch)
			}
			t.base = tip
		}
	}
	different := crossProject || startBranch != branch || in.StartSHA != nil
	tip, exists := t.base, !t.base.IsZero()
	if different {
		// The parent comes from elsewhere; read the target branch now. When the commit goes
		// onto its own start branch, the tip read above is both the parent and the expected
		// old value: reading it twice would let a concurrent commit in between be dropped.
		if tip, exists, err = repo.BranchTip(ctx, branch); err != nil {
			return t, err
		}
	}
	if has && different && exists && !in.Force {
		return t, apperr.Refused("A branch called '" + branch + "' already exists. Switch to that branch in order to make changes")
	}
	if (different || !exists) && git.ValidateBranchName(branch) != nil {
		return t, badBranchName(branch)
	}
	if exists {
		t.old = tip
		if different && tip != t.base {
			// force replaces the branch: unless the new parent descends from its tip, that
			// rewrites history, which protected branches may forbid.
			if ok, err := repo.IsAncestor(ctx, string(tip), string(t.base)); err != nil {
				return t, err
			} else if !ok {
				if err := s.canPush(ctx, actor, p, branch, true); err != nil {
					return t, err
				}
			}
		}
	}
	if crossProject && !t.base.IsZero() {
		// The start commit may be newer than the fork: bring it over, as GitLab fetches the
		// start branch from the start project.
		if err := repo.FetchFrom(ctx, startRepo, git.FetchOptions{Objects: []git.ObjectID{t.base}}); err != nil {
			return t, err
		}
	}
	return t, nil
}

// checkFileStatus refuses an update, move, delete or chmod whose last_commit_id is stale: the
// file's last commit on the start revision differs from its last commit as of last_commit_id.
// Either being unknown passes, as in GitLab (the tree action reports a missing file).
func (s *Service) checkFileStatus(ctx context.Context, p *ent.Project, repo *git.Repository, base git.ObjectID, a Action, t git.TreeAction) error {
	if a.LastCommitID == nil || *a.LastCommitID == "" || base.IsZero() {
		return nil
	}
	switch t.Action {
	case git.ActionUpdate, git.ActionMove, git.ActionDelete, git.ActionChmod:
	default:
		return nil
	}
	path := t.Path
	if t.Action == git.ActionMove {
		path = t.PreviousPath
	}
	current, err := s.repos.LastCommitForPath(ctx, p, repo, base, path)
	if err != nil {
		if isMissing(err) {
			return nil
		}
		return err
	}
	if git.ValidateRevision(*a.LastCommitID) != nil {
		return nil
	}
	knownAt, err := repo.ResolveCommit(ctx, *a.LastCommitID)
	if err != nil {
		if isMissing(err) {
			return nil
		}
		return err
	}
	known, err := s.repos.LastCommitForPath(ctx, p, repo, knownAt, path)
	if err != nil {
		if isMissing(err) {
			return nil
		}
		return err
	}
	if current != known {
		return apperr.Refused("The file has changed since you started editing it: " + path)
	}
	return nil
}

// actionErr maps a refused tree action to GitLab's message.
func actionErr(err error) error {
	var ae *git.ActionError
	switch {
	case errors.Is(err, git.ErrFileExists):
		return apperr.Refused(msgFileExists)
	case errors.Is(err, git.ErrFileNotFound):
		return apperr.Refused(msgFileMissing)
	case errors.Is(err, git.ErrDirectoryExists):
		return apperr.Refused(msgDirectoryExists)
	case errors.As(err, &ae) && errors.Is(err, git.ErrInvalidPath):
		return apperr.BadParam(fmt.Sprintf("actions[%d][file_path] should be a valid file path", ae.Index))
	case errors.As(err, &ae) && errors.Is(err, git.ErrInvalidArgument):
		return apperr.Refused(ae.Err.Error())
	}
	return err
}
