package forks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/nullable"
	"anvil/internal/service/projects"
	"anvil/internal/service/refs"
)

// ForkInput is POST /projects/:id/fork, in GitLab's names. Nil fields were not given.
type ForkInput struct {
	// NamespaceID (namespace_id) or NamespacePath (namespace_path) is where the fork goes;
	// Namespace (namespace, deprecated) is either. None means the caller's personal namespace.
	NamespaceID   *int
	NamespacePath *string
	Namespace     *string
	// Path, Name and Description default to the source's (path, name, description).
	Path, Name, Description *string
	// Visibility (visibility) can only lower the fork's visibility, which is at most the
	// source's and the target namespace's.
	Visibility *string
	// Branch (branches) forks only this branch (and the tags it contains); it becomes the
	// fork's default branch.
	Branch *string
}

// Fork creates a fork of the project sourceRef for actor, in GitLab's order of checks: the
// source must be visible (404 Project Not Found) and forkable by actor (404 Not Found), the
// target namespace must exist and be visible (404 Namespace Not Found), a requested branch must
// exist (404 Source Branch Not Found), and actor must be allowed to create projects there (404
// Target Namespace Not Found). The fork is created through the project service (a taken name
// or path is a conflict with the full messages), takes the source's feature settings, records its source, and
// gets a repository holding the source's branches and tags, whose default branch is protected
// as any new default branch. It returns the fork as actor sees it.
func (s *Service) Fork(ctx context.Context, actor *authz.Actor, sourceRef string, in ForkInput) (*ent.Project, *projects.View, error) {
	if actor.IsAnonymous() {
		return nil, nil, apperr.Unauthorized()
	}
	src, err := s.projects.Find(ctx, actor, sourceRef, authz.ReadProject)
	if err != nil {
		return nil, nil, err
	}
	if err := s.policy.Project(ctx, actor, src, authz.ForkProject); err != nil {
		if _, ok := apperr.As(err); ok {
			return nil, nil, apperr.NotFound("")
		}
		return nil, nil, err
	}
	ns, err := s.target(ctx, actor, in)
	if err != nil {
		return nil, nil, err
	}
	srcRepo, err := s.sourceRepository(src)
	if err != nil {
		return nil, nil, err
	}
	branch := ""
	if in.Branch != nil && *in.Branch != "" {
		branch = *in.Branch
		if !refs.ValidBranchName(branch) || srcRepo == nil {
			return nil, nil, apperr.NotFound("Source Branch")
		}
		if _, err := srcRepo.Branch(ctx, branch); err != nil {
			if errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) || errors.Is(err, git.ErrInvalidRefName) {
				return nil, nil, apperr.NotFound("Source Branch")
			}
			return nil, nil, err
		}
	}
	if ok, err := s.canCreateIn(ctx, actor, ns); err != nil {
		return nil, nil, err
	} else if !ok {
		return nil, nil, apperr.NotFound("Target Namespace")
	}

	in2, err := s.createInput(ctx, src, srcRepo, ns, in, branch)
	if err != nil {
		return nil, nil, err
	}
	fork, _, err := s.projects.Create(ctx, actor, in2)
	if err != nil {
		return nil, nil, conflict(err)
	}
	if err := s.populate(ctx, src, srcRepo, fork, branch); err != nil {
		s.undo(ctx, actor, fork)
		return nil, nil, err
	}
	return s.projects.Get(ctx, actor, strconv.Itoa(fork.ID))
}

// sourceRepository is the source's repository, or nil when it has none on disk (a fork of it
// starts empty, as GitLab forks an empty repository).
func (s *Service) sourceRepository(src *ent.Project) (*git.Repository, error) {
	repo, err := s.repos.Repository(src)
	if err != nil {
		if apperr.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	if !repo.Exists() {
		return nil, nil
	}
	return repo, nil
}

// target resolves the namespace the fork goes to.
func (s *Service) target(ctx context.Context, actor *authz.Actor, in ForkInput) (*ent.Namespace, error) {
	switch {
	case in.NamespaceID != nil:
		return s.findNamespace(ctx, actor, in.NamespaceID, "")
	case in.NamespacePath != nil && *in.NamespacePath != "":
		return s.findNamespace(ctx, actor, nil, *in.NamespacePath)
	case in.Namespace != nil && *in.Namespace != "":
		if id, ok := numericRef(*in.Namespace); ok {
			return s.findNamespace(ctx, actor, &id, "")
		}
		return s.findNamespace(ctx, actor, nil, *in.Namespace)
	}
	return s.personalNamespace(ctx, actor)
}

// visibilityRank orders visibility levels.
func visibilityRank(v string) int {
	switch v {
	case "public":
		return 2
	case "internal":
		return 1
	}
	return 0
}

// createInput is the project a fork creates: the source's name, path, description and
// settings unless given, at most the source's and the namespace's visibility (a requested one
// can only lower it), and the source's default branch (or the forked branch).
func (s *Service) createInput(ctx context.Context, src *ent.Project, srcRepo *git.Repository, ns *ent.Namespace, in ForkInput, branch string) (projects.CreateInput, error) {
	pick := func(given *string, def string) *string {
		if given != nil {
			return given
		}
		return &def
	}
	visibility := string(src.Visibility)
	if visibilityRank(string(ns.Visibility)) < visibilityRank(visibility) {
		visibility = string(ns.Visibility)
	}
	if in.Visibility != nil && visibilityRank(*in.Visibility) < visibilityRank(visibility) {
		visibility = *in.Visibility
	}
	a := projects.Attributes{
		Name: pick(in.Name, src.Name), Path: pick(in.Path, src.Path), Description: nullable.FromPtr(pick(in.Description, src.Description)),
		Visibility:           &visibility,
		SharedRunnersEnabled: &src.SharedRunnersEnabled,
		CIConfigPath:         nullable.Of(src.CiConfigPath),
		AccessLevels:         map[string]string{},
	}
	for _, f := range projects.Features {
		if lvl := projects.FeatureLevel(src, f); lvl != "" {
			a.AccessLevels[f] = lvl
		}
	}
	def := branch
	if def == "" && srcRepo != nil {
		head, err := srcRepo.Head(ctx)
		if err != nil {
			return projects.CreateInput{}, err
		}
		def = head
	}
	if def == "" {
		def = src.DefaultBranch
	}
	if def != "" && git.ValidateBranchName(def) == nil {
		a.DefaultBranch = &def
	}
	return projects.CreateInput{Attributes: a, NamespaceID: &ns.ID}, nil
}

// populate records the fork's source and fills its repository from the source's.
func (s *Service) populate(ctx context.Context, src *ent.Project, srcRepo *git.Repository, fork *ent.Project, branch string) error {
	if err := db.ClientFrom(ctx, s.client).Project.UpdateOneID(fork.ID).SetForkedFromID(src.ID).Exec(ctx); err != nil {
		return err
	}
	if srcRepo == nil {
		return nil // a source without a repository gives an empty fork
	}
	dst, err := s.repos.Repository(fork)
	if err != nil {
		return err
	}
	if err := copyRepository(ctx, srcRepo, dst, branch); err != nil {
		return err
	}
	head, err := dst.Head(ctx)
	if err != nil {
		return err
	}
	if _, err := dst.Branch(ctx, head); err != nil {
		return nil // the source's default branch does not exist yet: nothing to protect
	}
	if err := s.protected.ProtectDefaultBranch(ctx, fork, head); err != nil {
		return fmt.Errorf("protect fork default branch: %w", err)
	}
	return nil
}

// undo removes a fork whose repository could not be made, so that the request leaves nothing
// behind and can be retried. The fork was created by this very request, so its removal does
// not depend on the role its creator has in the target namespace.
func (s *Service) undo(ctx context.Context, actor *authz.Actor, fork *ent.Project) {
	internal := *actor.User
	internal.Admin = true
	if err := s.projects.Delete(ctx, &authz.Actor{User: &internal}, strconv.Itoa(fork.ID)); err != nil {
		slog.ErrorContext(ctx, "remove fork after failed repository copy", "project_id", fork.ID, "err", err)
	}
}
