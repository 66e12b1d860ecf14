// Package forks holds project forking (GitLab's fork endpoints): creating a fork with its own
// repository holding the source's objects and refs, listing a project's forks, and linking or
// unlinking a fork relation between existing projects.
package forks

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repos"
	"anvil/internal/service/wire"
)

// Service is the fork service.
type Service struct {
	client    *ent.Client
	policy    *authz.Policy
	projects  *projects.Service
	repos     *repos.Service
	protected *protectedbranches.Service
}

// New returns the fork service; pb protects a fork's default branch as GitLab does after a
// fork's repository is made.
func New(client *ent.Client, policy *authz.Policy, p *projects.Service, r *repos.Service, pb *protectedbranches.Service) *Service {
	wire.Require("forks", wire.D("client", client), wire.D("policy", policy), wire.D("projects", p),
		wire.D("repos", r), wire.D("protected branches", pb))
	return &Service{client: client, policy: policy, projects: p, repos: r, protected: pb}
}

// conflict turns a validation failure of the project service into GitLab's 409 answer to a
// fork that could not be created (a taken name or path, an invalid path): a conflict with full
// messages ("Path has already been taken"), name and path first as GitLab validates them.
func conflict(err error) error {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.KindValidation {
		return err
	}
	fields := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		fields = append(fields, f)
	}
	rank := func(f string) int {
		switch f {
		case "name":
			return 0
		case "path":
			return 1
		}
		return 2
	}
	sort.Slice(fields, func(i, j int) bool {
		if rank(fields[i]) != rank(fields[j]) {
			return rank(fields[i]) < rank(fields[j])
		}
		return fields[i] < fields[j]
	})
	var msgs []string
	for _, f := range fields {
		for _, m := range e.Fields[f] {
			if f == "base" {
				msgs = append(msgs, m)
				continue
			}
			msgs = append(msgs, humanize(f)+" "+m)
		}
	}
	return apperr.ConflictMessages(msgs)
}

// humanize is Rails' attribute name in a full message: "limit_reached" → "Limit reached",
// "project_namespace.name" → "Project namespace name".
func humanize(field string) string {
	s := strings.NewReplacer("_", " ", ".", " ").Replace(field)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// canCreateIn reports whether actor may create projects in ns (GitLab's fork targets): its own
// personal namespace, or a group where its level meets project_creation_level; administrators
// anywhere.
func (s *Service) canCreateIn(ctx context.Context, actor *authz.Actor, ns *ent.Namespace) (bool, error) {
	if actor.IsAdmin() {
		return true, nil
	}
	if ns.Kind == namespace.KindUser {
		return ns.OwnerID != nil && *ns.OwnerID == actor.UserID(), nil
	}
	level, readable, err := s.policy.GroupLevel(ctx, actor, ns)
	if err != nil || !readable {
		return false, err
	}
	return authz.CanGroup(actor, ns, level, authz.CreateProjects), nil
}

// findNamespace resolves the target namespace of a fork by id or full path (GitLab's
// find_namespace!): 404 Namespace Not Found unless it exists and actor may see it (its own
// personal namespace, or a group it can read).
func (s *Service) findNamespace(ctx context.Context, actor *authz.Actor, id *int, path string) (*ent.Namespace, error) {
	c := db.ClientFrom(ctx, s.client)
	var (
		ns  *ent.Namespace
		err error
	)
	if id != nil {
		ns, err = c.Namespace.Get(ctx, *id)
	} else {
		ns, err = c.Namespace.Query().Where(namespace.FullPathEqualFold(path)).First(ctx)
	}
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Namespace")
	}
	if err != nil {
		return nil, err
	}
	if ns.Kind == namespace.KindUser {
		if actor.IsAdmin() || (ns.OwnerID != nil && *ns.OwnerID == actor.UserID()) {
			return ns, nil
		}
		return nil, apperr.NotFound("Namespace")
	}
	if _, readable, err := s.policy.GroupLevel(ctx, actor, ns); err != nil {
		return nil, err
	} else if !readable {
		return nil, apperr.NotFound("Namespace")
	}
	return ns, nil
}

// personalNamespace is actor's own namespace.
func (s *Service) personalNamespace(ctx context.Context, actor *authz.Actor) (*ent.Namespace, error) {
	ns, err := db.ClientFrom(ctx, s.client).Namespace.Query().
		Where(namespace.OwnerID(actor.UserID()), namespace.KindEQ(namespace.KindUser)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Target Namespace")
	}
	return ns, err
}

// numericRef reports whether a deprecated "namespace" value is an id.
func numericRef(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}
