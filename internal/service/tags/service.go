// Package tags holds the tag operations of a project's repository (GitLab's tags API):
// listing with search and ordering, reading one tag, creating lightweight and annotated tags
// (tagged by the caller) and deleting tags. Git runs only through package git.
package tags

import (
	"context"
	"errors"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/refs"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"
)

// Service is the tag service.
type Service struct {
	open  refs.Opener
	repos *repos.Service
}

// New returns the tag service.
func New(policy *authz.Policy, p *projects.Service, r *repos.Service) *Service {
	wire.Require("tags", wire.D("policy", policy), wire.D("projects", p), wire.D("repos", r))
	return &Service{open: refs.Opener{Projects: p, Policy: policy, Repos: r}, repos: r}
}

// Get returns the tag name of the project ref names: 404 Tag Not Found when there is none (an
// invalid name names no tag and starts no git process).
func (s *Service) Get(ctx context.Context, actor *authz.Actor, projectRef, name string) (*ent.Project, *git.Tag, error) {
	p, repo, err := s.open.Read(ctx, actor, projectRef)
	if err != nil {
		return nil, nil, err
	}
	t, err := find(ctx, repo, name)
	if err != nil {
		return nil, nil, err
	}
	return p, t, nil
}

// find reads one tag; a missing or invalid name is 404 Tag Not Found.
func find(ctx context.Context, repo *git.Repository, name string) (*git.Tag, error) {
	if !refs.ValidTagName(name) {
		return nil, apperr.NotFound("Tag")
	}
	t, err := repo.Tag(ctx, name)
	if err != nil {
		if missing(err) {
			return nil, apperr.NotFound("Tag")
		}
		return nil, err
	}
	return t, nil
}

// missing reports whether err means the ref or its object does not exist.
func missing(err error) bool {
	return errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) ||
		errors.Is(err, git.ErrInvalidRefName) || errors.Is(err, git.ErrInvalidRevision)
}

// Message is the annotation of an annotated tag as GitLab shows it, without the newline git
// ends it with; nil for a lightweight tag.
func Message(t *git.Tag) *string {
	if !t.Annotated {
		return nil
	}
	m := strings.TrimSuffix(t.Message, "\n")
	return &m
}
