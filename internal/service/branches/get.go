package branches

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/refs"
)

// msgInvalidRefname is GitLab's answer (find_branch!) to a branch name its validator refuses.
const msgInvalidRefname = "The branch refname is invalid"

// Get returns the branch name of the project ref names with its flags for actor: 400 "The
// branch refname is invalid" for a name git would refuse (checked before any git process),
// 404 Branch Not Found when there is no such branch.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, projectRef, name string) (*ent.Project, Branch, error) {
	p, repo, err := s.open.Read(ctx, actor, projectRef)
	if err != nil {
		return nil, Branch{}, err
	}
	b, err := find(ctx, repo, name)
	if err != nil {
		return nil, Branch{}, err
	}
	if err := s.fill(ctx, actor, p, repo, &b); err != nil {
		return nil, Branch{}, err
	}
	return p, b, nil
}

// Exists reports whether the project ref names has the branch name (HEAD
// /projects/:id/repository/branches/:branch); an invalid name does not exist.
func (s *Service) Exists(ctx context.Context, actor *authz.Actor, projectRef, name string) (bool, error) {
	_, repo, err := s.open.Read(ctx, actor, projectRef)
	if err != nil {
		return false, err
	}
	if !refs.ValidBranchName(name) {
		return false, nil
	}
	if _, err := repo.Branch(ctx, name); err != nil {
		if missing(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// find reads a branch after validating its name (GitLab's find_branch!).
func find(ctx context.Context, repo *git.Repository, name string) (Branch, error) {
	if !refs.ValidBranchName(name) {
		return Branch{}, apperr.Refused(msgInvalidRefname)
	}
	gb, err := repo.Branch(ctx, name)
	if err != nil {
		if missing(err) {
			return Branch{}, apperr.NotFound("Branch")
		}
		return Branch{}, err
	}
	return Branch{Name: gb.Name, Commit: gb.Commit}, nil
}

// missing reports whether err means the ref or its object does not exist.
func missing(err error) bool {
	return errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) ||
		errors.Is(err, git.ErrInvalidRefName) || errors.Is(err, git.ErrInvalidRevision)
}

// fill computes one branch's flags.
func (s *Service) fill(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, b *Branch) error {
	f, err := s.newFlagger(ctx, actor, p, repo)
	if err != nil {
		return err
	}
	one := []Branch{*b}
	if err := f.fill(ctx, one); err != nil {
		return err
	}
	*b = one[0]
	return nil
}
