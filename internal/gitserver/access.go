package gitserver

import (
	"context"
	"net/http"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// GitLab's git access refusals (Gitlab::GitAccess).
const (
	msgCommandNotAllowed = "The command you're trying to execute is not allowed."
	msgAuthDownload      = "You are not allowed to download code."
	msgAuthUpload        = "You are not allowed to upload code."
	msgProjectNotFound   = "The project you were looking for could not be found or you don't have permission to view it."
	msgNoRepo            = "A repository for this project does not exist yet."
	msgDownload          = "You are not allowed to download code from this project."
	msgArchived          = "You can't push code to an archived project."
	msgPushCode          = "You are not allowed to push code to this project."
	msgPushUnavailable   = "Pushing is not available on this server at the moment."
	msgReadOnly          = "The repository is temporarily read-only. Please try again later."
)

// check decides whether the authenticated caller may run the service on the project, in
// GitLab's order: what the credentials allow, the project's visibility (404 for a project the
// caller cannot see), the repository's existence, then read or push access. An anonymous caller
// may only download public code; anything else asks for credentials (401), so that git prompts
// and nothing tells whether a private project exists.
func (s *Server) check(ctx context.Context, auth *authResult, rt route) (*ent.Project, *git.Repository, *failure) {
	download := rt.service == uploadPack
	anonymous := auth.actor.IsAnonymous()
	switch {
	case anonymous && !download:
		return nil, nil, s.accessDenied()
	case download && !auth.download:
		return nil, nil, &failure{status: http.StatusForbidden, msg: msgAuthDownload}
	case !download && !auth.push:
		return nil, nil, &failure{status: http.StatusForbidden, msg: msgAuthUpload}
	}
	notFound := &failure{status: http.StatusNotFound, msg: msgProjectNotFound}
	if anonymous {
		notFound = s.accessDenied()
	}
	p, level, readable, err := s.Projects.LookupLevelFollowing(ctx, auth.actor, rt.project)
	if err != nil {
		return nil, nil, s.internalOr(ctx, err, notFound)
	}
	canDownload := authz.CanProject(auth.actor, p, level, authz.DownloadCode)
	if !readable || (anonymous && !canDownload) {
		return nil, nil, notFound
	}
	repo, err := s.Repos.Repository(p)
	if err != nil || !repo.Exists() {
		return nil, nil, &failure{status: http.StatusNotFound, msg: msgNoRepo}
	}
	if download {
		if !canDownload {
			return nil, nil, &failure{status: http.StatusForbidden, msg: msgDownload}
		}
		return p, repo, nil
	}
	switch {
	case p.RepositoryReadOnly:
		// The repository is moving between storages; GitLab says so before anything else.
		return nil, nil, &failure{status: http.StatusForbidden, msg: msgReadOnly}
	case !authz.CanProject(auth.actor, p, level, authz.PushCode) && p.Archived:
		// The policy refuses every push to an archived project; GitLab says why first.
		return nil, nil, &failure{status: http.StatusForbidden, msg: msgArchived}
	case !authz.CanProject(auth.actor, p, level, authz.PushCode):
		return nil, nil, &failure{status: http.StatusForbidden, msg: msgPushCode}
	case !hookReady.Load() || s.hooksErr != nil:
		return nil, nil, &failure{status: http.StatusServiceUnavailable, msg: msgPushUnavailable}
	}
	return p, repo, nil
}

// internalOr answers err: not-found errors with notFound, anything else as an internal error.
func (s *Server) internalOr(ctx context.Context, err error, notFound *failure) *failure {
	if apperr.IsNotFound(err) {
		return notFound
	}
	return s.internal(ctx, err)
}

// internal logs err and answers 500.
func (s *Server) internal(ctx context.Context, err error) *failure {
	s.Log.ErrorContext(ctx, "git request failed", "err", err)
	return &failure{status: http.StatusInternalServerError, msg: "Internal server error"}
}
