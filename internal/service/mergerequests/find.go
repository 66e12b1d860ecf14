package mergerequests

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Find returns the merge request iid of project ref (loaded with Load, the project's edges
// included) if the actor may read it and has ability on it, with the actor's level in the
// project. A project the actor cannot see is 404 Project Not Found; merge requests it may not
// read (the feature off or private to members) 404 Merge Request Not Found; a readable merge
// request without ability 403 (401 when anonymous). authz.UpdateMergeRequest also admits the
// merge request's author and assignees, as GitLab's IssuablePolicy does.
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref, iidText string, ability authz.Ability) (*ent.MergeRequest, authz.Level, error) {
	proj, level, readable, err := s.projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, 0, err
	}
	if err := authz.Check(actor, proj, level, readable, authz.ReadMergeRequest); err != nil {
		return nil, 0, notFoundIfForbidden(err)
	}
	iid, err := strconv.Atoi(iidText)
	if err != nil {
		return nil, 0, apperr.NotFound("Merge Request")
	}
	mr, err := Load(db.ClientFrom(ctx, s.client).MergeRequest.Query().
		Where(mergerequest.ProjectID(proj.ID), mergerequest.Iid(iid))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, 0, apperr.NotFound("Merge Request")
	}
	if err != nil {
		return nil, 0, err
	}
	// The project read with the actor's level (its shares and namespace) stands for the one
	// Load read, so later checks see the same facts.
	mr.Edges.Project = proj
	if !s.can(actor, proj, level, mr, ability) {
		if actor.IsAnonymous() {
			return nil, 0, apperr.Unauthorized()
		}
		return nil, 0, apperr.Forbidden("")
	}
	return mr, level, nil
}

// can reports whether the actor (level in proj) has ability on the merge request.
func (s *Service) can(actor *authz.Actor, proj *ent.Project, level authz.Level, mr *ent.MergeRequest, ability authz.Ability) bool {
	if ability == authz.UpdateMergeRequest {
		return CanUpdate(actor, proj, level, mr)
	}
	return authz.CanProject(actor, proj, level, ability)
}

// CanUpdate reports whether the actor may change the merge request: update_merge_request
// (Developer+), or its author or an assignee who reads it (GitLab's IssuablePolicy).
func CanUpdate(actor *authz.Actor, proj *ent.Project, level authz.Level, mr *ent.MergeRequest) bool {
	if authz.CanProject(actor, proj, level, authz.UpdateMergeRequest) {
		return true
	}
	if actor.IsAnonymous() || proj.Archived || !authz.CanProject(actor, proj, level, authz.ReadMergeRequest) {
		return false
	}
	if mr.AuthorID != nil && *mr.AuthorID == actor.UserID() {
		return true
	}
	for _, a := range mr.Edges.AssigneeLinks {
		if a.UserID == actor.UserID() {
			return true
		}
	}
	return false
}

// notFoundIfForbidden turns a refusal to read merge requests of a readable project into 404
// Merge Request Not Found, as GitLab's finder hides them then.
func notFoundIfForbidden(err error) error {
	if apperr.Is(err, apperr.KindForbidden, apperr.KindUnauthorized) {
		return apperr.NotFound("Merge Request")
	}
	return err
}

// reload reads the merge request id again with Load through the context's client.
func (s *Service) reload(ctx context.Context, id int) (*ent.MergeRequest, error) {
	return Load(db.ClientFrom(ctx, s.client).MergeRequest.Query().Where(mergerequest.ID(id))).Only(ctx)
}

// FindIn returns mr (loaded) with the actor's level in its project, for a write's answer: the
// single shape's details depend on the level.
func (s *Service) FindIn(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) (*ent.MergeRequest, authz.Level, error) {
	proj, level, _, err := s.projects.LookupLevel(ctx, actor, strconv.Itoa(mr.ProjectID))
	if err != nil {
		return nil, 0, err
	}
	mr.Edges.Project = proj
	return mr, level, nil
}
