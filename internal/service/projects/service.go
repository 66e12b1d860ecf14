// Package projects holds the project operations: create, find, list, update, delete and
// sharing a project with a group.
package projects

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/settings"
)

// Service is the project service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	settings *settings.Service
	// Repos creates and removes repositories; nil until the git layer is wired in.
	Repos RepositoryHooks
	// OnDelete runs inside a project deletion's transaction, before the row goes; other
	// domains register their cleanup here.
	OnDelete []DeleteHook
}

// New returns the project service.
func New(client *ent.Client, policy *authz.Policy, st *settings.Service) *Service {
	return &Service{client: client, policy: policy, settings: st}
}

// Lookup finds a project by id or by "namespace/path" without permission checks, with its
// namespace loaded; 404 Project Not Found.
func (s *Service) Lookup(ctx context.Context, ref string) (*ent.Project, error) {
	return s.lookup(ctx, ref, func(q *ent.ProjectQuery) *ent.ProjectQuery { return q.WithNamespace() })
}

// lookup finds a project by reference with the edges load asks for.
func (s *Service) lookup(ctx context.Context, ref string, load func(*ent.ProjectQuery) *ent.ProjectQuery) (*ent.Project, error) {
	q := db.ClientFrom(ctx, s.client).Project.Query().Where(project.PendingDelete(false))
	if id, err := strconv.Atoi(ref); err == nil {
		return only(load(q.Where(project.ID(id))).Only(ctx))
	}
	i := strings.LastIndexByte(ref, '/')
	if i <= 0 || i == len(ref)-1 {
		return nil, apperr.NotFound("Project")
	}
	// The exact spelling first, which the unique indexes answer; paths match case-insensitively
	// as in GitLab, which costs a scan, so it is only the fallback.
	p, err := only(load(q.Clone().Where(project.Path(ref[i+1:]),
		project.HasNamespaceWith(namespace.FullPath(ref[:i])))).Only(ctx))
	if !apperr.IsNotFound(err) {
		return p, err
	}
	return only(load(q.Where(project.PathEqualFold(ref[i+1:]),
		project.HasNamespaceWith(namespace.FullPathEqualFold(ref[:i])))).Only(ctx))
}

// only maps a lookup's miss to 404 Project Not Found.
func only(p *ent.Project, err error) (*ent.Project, error) {
	if ent.IsNotFound(err) || ent.IsNotSingular(err) {
		return nil, apperr.NotFound("Project")
	}
	return p, err
}

// Find returns the project ref names if the actor has ability on it: 404 Project Not Found when
// it cannot see it, 403 when it can see it but not act.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (*ent.Project, error) {
	p, err := s.Lookup(ctx, ref)
	if err != nil {
		return nil, err
	}
	if err := s.policy.Project(ctx, actor, p, ability); err != nil {
		return nil, err
	}
	return p, nil
}

// FullPath is the project's path with its namespace ("group/sub/project"); the namespace edge
// must be loaded.
func FullPath(p *ent.Project) string {
	return p.Edges.Namespace.FullPath + "/" + p.Path
}
