// Package repofiles serves a project's repository contents: the tree, blobs, archives,
// comparisons, contributors and merge bases of GitLab's repositories API, and the files API
// (read, raw, blame, and single-file commits). Every operation authorizes the caller first and
// reads git only through package git.
package repofiles

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"
)

// BranchGuard decides ref updates on protected branches (implemented by the protected branches
// service).
type BranchGuard interface {
	// CanPush refuses (403 "You are not allowed to push into this branch") an actor who may not
	// move branch of p.
	CanPush(ctx context.Context, actor *authz.Actor, p *ent.Project, branch string) error
}

// Service is the repository contents service.
type Service struct {
	projects *projects.Service
	repos    *repos.Service
	// branches guards branch updates (protected branches).
	branches BranchGuard
	sums     *sumCache
	trees    *treeCache
}

// New returns the service; guard decides protected branches.
func New(p *projects.Service, r *repos.Service, guard BranchGuard) *Service {
	wire.Require("repofiles", wire.D("projects", p), wire.D("repos", r), wire.D("branch guard", guard))
	return &Service{projects: p, repos: r, branches: guard, sums: newSumCache(4096), trees: newTreeCache(250000, 500)}
}

// open finds the project ref names, checks ability and returns the project with its repository.
// Unlike repos.Open, a visible project whose code the caller may not read (a Guest of a private
// project, a disabled repository feature) answers 403, as GitLab's authorize_read_code! does on
// the repositories and files APIs.
func (s *Service) open(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (*ent.Project, *git.Repository, error) {
	p, err := s.projects.Find(ctx, actor, ref, ability)
	if err != nil {
		return nil, nil, err
	}
	repo, err := s.repos.Repository(p)
	if err != nil {
		return nil, nil, err
	}
	return p, repo, nil
}

// isMissing reports whether err means a revision, object or path does not exist, or the
// revision text is unusable (which GitLab answers the same way: not found).
func isMissing(err error) bool {
	return errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) ||
		errors.Is(err, git.ErrInvalidRevision) || errors.Is(err, git.ErrInvalidObjectID)
}

// notFound maps a missing revision, object or path to 404 "<resource> Not Found" and passes
// other errors through.
func notFound(err error, resource string) error {
	if isMissing(err) || errors.Is(err, git.ErrInvalidPath) {
		return apperr.NotFound(resource)
	}
	return err
}
