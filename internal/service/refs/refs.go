// Package refs holds what the branch and tag services share: opening a project's repository
// for reading or writing with GitLab's checks, GitLab's ref name rules, its ref search, offset
// and keyset pages over ref names, and the identity a ref change made through the API records.
package refs

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/repos"
)

// Opener finds a project and its repository after the checks every branch and tag endpoint
// makes first.
type Opener struct {
	Projects *projects.Service
	Policy   *authz.Policy
	Repos    *repos.Service
}

// Read returns the project ref names and its repository when actor may read its code, in the
// order of GitLab's before-filters (authz.CheckRepository): 404 Project Not Found when the
// project is invisible, 404 Repository Not Found when its repository feature is not available
// to the caller, 403 when the project is visible but its code is not (a Guest of a private
// project), and 404 Not Found when the repository does not exist on disk.
func (o *Opener) Read(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *git.Repository, error) {
	p, repo, _, err := o.open(ctx, actor, ref)
	return p, repo, err
}

// Write is Read plus push access to the project (GitLab's authorize_push_project, which an
// archived project refuses): 403 for a reader who may not push, 401 for anonymous callers.
func (o *Opener) Write(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *git.Repository, error) {
	if actor.IsAnonymous() {
		return nil, nil, apperr.Unauthorized()
	}
	p, repo, level, err := o.open(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if err := authz.Check(actor, p, level, true, authz.PushCode); err != nil {
		return nil, nil, err
	}
	return p, repo, nil
}

// open finds the project and its existing repository after authz.CheckRepository for reading
// the code, and returns the actor's level in it for further checks.
func (o *Opener) open(ctx context.Context, actor *authz.Actor, ref string) (*ent.Project, *git.Repository, authz.Level, error) {
	p, level, readable, err := o.Projects.LookupLevel(ctx, actor, ref)
	if err != nil {
		return nil, nil, level, err
	}
	if err := authz.CheckRepository(actor, p, level, readable, authz.DownloadCode); err != nil {
		return nil, nil, level, err
	}
	repo, err := o.Repos.Repository(p)
	if err != nil {
		return nil, nil, level, err
	}
	if !repo.Exists() {
		return nil, nil, level, apperr.NotFound("")
	}
	return p, repo, level, nil
}

// Signature is the identity a ref change through the API records for actor (a tag's tagger,
// the commit an empty repository's first branch needs): the user's name and commit email
// (their email when none is set), dated now in UTC.
func Signature(actor *authz.Actor) git.Signature {
	u := actor.User
	email := u.Email
	if u.CommitEmail != "" {
		email = u.CommitEmail
	}
	return git.Signature{Name: u.Name, Email: email, When: time.Now().UTC().Truncate(time.Second)}
}

// CheckUnmodifiedSince answers 412 Precondition Failed when the caller sent If-Unmodified-Since
// and the ref's commit was authored after it (GitLab's destroy_conditionally!, which compares
// the commit's authored date).
func CheckUnmodifiedSince(since *time.Time, c *git.Commit) error {
	if since == nil || c == nil {
		return nil
	}
	if c.Author.When.Truncate(time.Second).After(*since) {
		return apperr.PreconditionFailed()
	}
	return nil
}
