// Package commits holds the commit operations of a project's repository: listing and reading
// commits, their refs, diffs and sequence numbers, creating commits from file actions,
// cherry-picking and reverting, moving a submodule, and generating changelogs. Every operation
// authorizes the caller first and runs git only through package git.
package commits

import (
	"context"
	"errors"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"

	lru "github.com/hashicorp/golang-lru/v2"
)

// BranchGuard decides branch updates on protected branches (implemented by the protected
// branches service).
type BranchGuard interface {
	// CanPush refuses (403 "You are not allowed to push into this branch") an actor who may not
	// move branch of p.
	CanPush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error
	// CanForcePush also refuses rewriting the history of a protected branch without
	// allow_force_push.
	CanForcePush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error
	// ProtectDefaultBranch protects a new default branch with the instance's defaults.
	ProtectDefaultBranch(ctx context.Context, p *ent.Project, branch string) error
}

// Service is the commit service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	repos    *repos.Service
	// branches guards branch updates (protected branches).
	branches BranchGuard
	// baseURL prefixes the web URLs changelogs link to.
	baseURL string
	// stats remembers the line counts of recently shown commits (immutable, keyed by id).
	stats *lru.Cache[git.ObjectID, git.CommitStats]
}

// statsCacheSize is how many commits' line counts are kept (a few dozen bytes each).
const statsCacheSize = 20_000

// New returns the commit service; guard decides protected branches and baseURL is the
// instance's external URL.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, r *repos.Service, guard BranchGuard, baseURL string) *Service {
	wire.Require("commits", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("repos", r), wire.D("branch guard", guard))
	stats, _ := lru.New[git.ObjectID, git.CommitStats](statsCacheSize)
	return &Service{client: client, policy: policy, projects: p, repos: r, branches: guard, baseURL: baseURL, stats: stats}
}

// open finds the project ref names and returns it with its repository when the actor may read
// its code, in the order of GitLab's before-filters (authz.CheckRepository): 404 Project Not
// Found when the project is invisible, 404 Repository Not Found when its repository feature is
// not available to the caller (off, or private to members), 403 when it is visible but the code
// is not (a Guest of a private project), as authorize_read_code! answers.
func (s *Service) open(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *git.Repository, error) {
	// One access-level computation answers every question.
	p, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if err := authz.CheckRepository(actor, p, level, readable, authz.DownloadCode); err != nil {
		return nil, nil, err
	}
	repo, err := s.repos.Repository(p)
	if err != nil {
		return nil, nil, err
	}
	return p, repo, nil
}

// canPush is the one place that decides whether actor may move branch of p: push access to
// the project, then the protected branch rules. Anonymous callers get 401 (GitLab's
// authenticate! before the push check).
func (s *Service) canPush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string, force bool) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	if err := s.policy.Project(ctx, actor, p, authz.PushCode); err != nil {
		if e, ok := apperr.As(err); ok && e.Kind == apperr.KindForbidden {
			return apperr.Forbidden(msgPushIntoBranch)
		}
		return err
	}
	if force {
		return s.branches.CanForcePush(ctx, actor, p, branch)
	}
	return s.branches.CanPush(ctx, actor, p, branch)
}

// GitLab's messages for refused commits.
const (
	msgPushIntoBranch  = "You are not allowed to push into this branch"
	msgNotOnBranch     = "You can only create or edit files when you are on a branch"
	msgFileExists      = "A file with this name already exists"
	msgFileMissing     = "A file with this name doesn't exist"
	msgDirectoryExists = "A directory with this name already exists"
)

// isMissing reports whether err means a revision or object does not exist, or the revision
// text is unusable (GitLab answers both as not found).
func isMissing(err error) bool {
	return errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) ||
		errors.Is(err, git.ErrInvalidRevision) || errors.Is(err, git.ErrInvalidObjectID)
}

// resolveCommit finds the commit rev names (an id, branch or tag): 404 Commit Not Found.
func resolveCommit(ctx context.Context, repo *git.Repository, rev string) (*git.Commit, error) {
	if rev == "" {
		return nil, apperr.NotFound("Commit")
	}
	c, err := repo.ReadCommit(ctx, rev)
	if err != nil {
		if isMissing(err) {
			return nil, apperr.NotFound("Commit")
		}
		return nil, err
	}
	return c, nil
}

func badBranchName(name string) error {
	return apperr.Refused("Something went wrong when we tried to create '" + name + "' for you: Branch name is invalid")
}

// identities returns the author (the given name and email, each defaulting to the caller's)
// and the committer (the caller, with their commit email), dated now in UTC as GitLab records
// commits made through the API.
func identities(actor *authz.Actor, authorName, authorEmail string) (git.Signature, git.Signature, error) {
	u := actor.User
	email := u.Email
	if u.CommitEmail != "" {
		email = u.CommitEmail
	}
	committer := git.Signature{Name: u.Name, Email: email, When: time.Now().UTC()}
	author := committer
	if authorName != "" {
		author.Name = authorName
	}
	if authorEmail != "" {
		author.Email = authorEmail
	}
	if git.ValidateIdentity(author.Name, author.Email) != nil {
		return author, committer, apperr.Refused("Invalid author")
	}
	if git.ValidateIdentity(committer.Name, committer.Email) != nil {
		return author, committer, apperr.Refused("Invalid committer")
	}
	return author, committer, nil
}
