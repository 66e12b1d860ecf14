// Package projects holds the project operations: create, find, list, update, delete and
// sharing a project with a group.
package projects

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Service is the project service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	settings *settings.Service
	// repos creates, inspects and removes repositories (set by Complete).
	repos Repositories
	// onDelete runs inside a project deletion's transaction, before the row goes: the other
	// domains' clean-up (set by Complete).
	onDelete []DeleteHook
	// onChange runs inside the transaction of an update, rename or transfer (system hooks).
	onChange []ChangeHook
	// moves schedules repository storage moves (set by Complete).
	moves StorageMover
}

// New returns the project service; Complete finishes it with the domains built after it.
func New(client *ent.Client, policy *authz.Policy, st *settings.Service) *Service {
	wire.Require("projects", wire.D("client", client), wire.D("policy", policy), wire.D("settings", st))
	return &Service{client: client, policy: policy, settings: st}
}

// Lookup finds a project by id or by "namespace/path" without permission checks, with its
// namespace loaded; 404 Project Not Found.
func (s *Service) Lookup(ctx context.Context, ref string) (*ent.Project, error) {
	return s.lookupAccess(ctx, ref)
}

// lookup finds a project by reference with the edges load asks for.
func (s *Service) lookup(ctx context.Context, ref string, load func(*ent.ProjectQuery) *ent.ProjectQuery) (*ent.Project, error) {
	exact, fold, err := refPredicates(ref)
	if err != nil {
		return nil, err
	}
	q := db.ClientFrom(ctx, s.client).Project.Query()
	p, err := only(load(q.Clone().Where(exact...)).Only(ctx))
	if fold == nil || !apperr.IsNotFound(err) {
		return p, err
	}
	return only(load(q.Where(fold...)).Only(ctx))
}

// refPredicates select the project a reference names: by id, or by "namespace/path" spelled
// exactly (which the unique indexes answer) and, as the fallback, case-insensitively as GitLab
// matches paths (which costs a scan). fold is nil for an id.
func refPredicates(ref string) (exact, fold []predicate.Project, err error) {
	live := project.PendingDelete(false)
	if id, err := strconv.Atoi(ref); err == nil {
		return []predicate.Project{live, project.ID(id)}, nil, nil
	}
	i := strings.LastIndexByte(ref, '/')
	if i <= 0 || i == len(ref)-1 {
		return nil, nil, apperr.NotFound("Project")
	}
	exact = []predicate.Project{live, project.Path(ref[i+1:]), inNamespaces(namespace.FullPath(ref[:i]))}
	fold = []predicate.Project{live, project.PathEqualFold(ref[i+1:]), inNamespaces(namespace.FullPathEqualFold(ref[:i]))}
	return exact, fold, nil
}

// inNamespaces selects the projects of the namespaces where selects, through the
// (namespace_id, path) index rather than a subquery per project.
func inNamespaces(where predicate.Namespace) predicate.Project {
	return predicate.Project(db.In(project.FieldNamespaceID, namespace.Table, namespace.FieldID, where))
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
	p, level, readable, err := s.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	if err := authz.Check(actor, p, level, readable, ability); err != nil {
		return nil, err
	}
	return p, nil
}

// FullPath is the project's path with its namespace ("group/sub/project"); the namespace edge
// must be loaded.
func FullPath(p *ent.Project) string {
	return p.Edges.Namespace.FullPath + "/" + p.Path
}
