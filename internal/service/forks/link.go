package forks

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/projects"
)

// Link marks the project ref names as a fork of the project forkedFromRef (POST
// /projects/:id/fork/:forked_from_id), without touching either repository. Checks, in GitLab's
// order: the project is visible (404) and actor owns it (403), the source is visible (404 Project
// Not Found) and forkable by actor (403), actor may create projects in the project's namespace
// (401 "401 Unauthorized - Target Namespace"), the project is not a fork yet (409 "Project
// already forked") and is not the source itself (400).
func (s *Service) Link(ctx context.Context, actor *authz.Actor, ref, forkedFromRef string) (*ent.Project, *projects.View, error) {
	if actor.IsAnonymous() {
		return nil, nil, apperr.Unauthorized()
	}
	p, err := s.projects.Find(ctx, actor, ref, authz.LinkForkedProject)
	if err != nil {
		return nil, nil, err
	}
	src, err := s.projects.Find(ctx, actor, forkedFromRef, authz.ReadProject)
	if err != nil {
		return nil, nil, err
	}
	if err := s.policy.Project(ctx, actor, src, authz.ForkProject); err != nil {
		return nil, nil, err
	}
	ns, err := db.ClientFrom(ctx, s.client).Namespace.Get(ctx, p.NamespaceID)
	if err != nil {
		return nil, nil, err
	}
	if ok, err := s.canCreateIn(ctx, actor, ns); err != nil {
		return nil, nil, err
	} else if !ok {
		return nil, nil, apperr.UnauthorizedReason("Target Namespace")
	}
	if p.ForkedFromID != nil {
		return nil, nil, apperr.Conflict("Project already forked")
	}
	if p.ID == src.ID {
		return nil, nil, apperr.Refused("Target project cannot be equal to source project")
	}
	if err := db.ClientFrom(ctx, s.client).Project.UpdateOneID(p.ID).SetForkedFromID(src.ID).Exec(ctx); err != nil {
		return nil, nil, err
	}
	return s.projects.Get(ctx, actor, strconv.Itoa(p.ID))
}

// Unlink removes the fork relation of the project ref names (DELETE /projects/:id/fork): actor
// must own it (403). It reports false when the project is not a fork (GitLab answers 304 Not
// Modified).
func (s *Service) Unlink(ctx context.Context, actor *authz.Actor, ref string) (bool, error) {
	if actor.IsAnonymous() {
		return false, apperr.Unauthorized()
	}
	p, err := s.projects.Find(ctx, actor, ref, authz.RemoveForkProject)
	if err != nil {
		return false, err
	}
	if p.ForkedFromID == nil {
		return false, nil
	}
	n, err := db.ClientFrom(ctx, s.client).Project.Update().
		Where(project.ID(p.ID), project.ForkedFromID(*p.ForkedFromID)).ClearForkedFromID().Save(ctx)
	if err != nil {
		return false, err
	}
	return n > 0, nil
}
