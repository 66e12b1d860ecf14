package repos

import (
	"context"
	"errors"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// BranchCommit is one commit written onto a branch through the API (a file change, a commit of
// actions, a cherry-pick or revert, a submodule update, a changelog, a README).
type BranchCommit struct {
	// Branch receives the commit (short name).
	Branch string
	// Commit is the new commit: tree, parents, message and identities.
	Commit git.CommitTreeOptions
	// Old is the branch's value the commit was prepared against: the branch moves only if it
	// still has that value (git.ZeroOID: the commit creates the branch).
	Old git.ObjectID
	// WasEmpty: the repository had no branch before, so the push record makes this branch the
	// default one (and protects it).
	WasEmpty bool
}

// CommitToBranch is the one way a commit made through the API lands on a branch (refused while
// the repository moves between storages, CheckWritable): the commit is
// written, the branch moved to it with a compare-and-swap on c.Old (of concurrent writers one
// wins; the others get 400 "Could not update refs/heads/<branch>. Please refresh and try
// again." and their commit stays unreferenced), and the change recorded as a push
// (RecordRefUpdates). A refused move answers in GitLab's words and still satisfies
// errors.Is(err, git.ErrStaleRef) or git.ErrReferenceExists for callers that retry or
// tolerate it.
func (s *Service) CommitToBranch(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, c BranchCommit) (git.ObjectID, error) {
	id, err := repo.CommitTree(ctx, c.Commit)
	if err != nil {
		return "", err
	}
	if err := s.UpdateRefs(ctx, actor, p, repo, c.WasEmpty, git.RefUpdate{Name: git.BranchRef(c.Branch), NewOID: id, OldOID: c.Old}); err != nil {
		return "", err
	}
	return id, nil
}

// UpdateRefs moves refs of p's repository (refused while it moves between storages,
// CheckWritable) in one transaction, each only if it still has its
// expected old value, and records the change as a push by actor (RecordRefUpdates). A stale
// ref answers 400 "Could not update <ref>. Please refresh and try again." (wrapping
// git.ErrStaleRef); a branch name clashing with another ref, or invalid, answers GitLab's
// "Branch name is invalid" (wrapping git.ErrReferenceExists or git.ErrInvalidRefName).
func (s *Service) UpdateRefs(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, wasEmpty bool, updates ...git.RefUpdate) error {
	if err := s.CheckWritable(ctx, p); err != nil {
		return err
	}
	if err := repo.UpdateRefs(ctx, updates...); err != nil {
		return refError(err, updates)
	}
	recorded := make([]RefUpdate, len(updates))
	for i, u := range updates {
		recorded[i] = RefUpdate{Old: u.OldOID, New: u.NewOID, Ref: u.Name}
	}
	s.RecordRefUpdates(ctx, actor, p, repo, wasEmpty, recorded...)
	return nil
}

// RecordRefUpdates records ref changes that have happened through the API as a push
// (RecordPush: events, last activity, a first branch becoming the default). The refs have
// moved and the change is acknowledged, so a failure is logged, never answered or dropped in
// silence; the record is written even if the caller has gone away.
func (s *Service) RecordRefUpdates(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, wasEmpty bool, updates ...RefUpdate) {
	if len(updates) == 0 {
		return
	}
	if err := s.RecordPush(context.WithoutCancel(ctx), actor, p, repo, wasEmpty, updates); err != nil {
		s.log.ErrorContext(ctx, "record push", "project_id", p.ID, "refs", len(updates), "err", err)
	}
}

// refError maps a refused ref transaction to GitLab's answer (naming its first ref), keeping
// the git error for errors.Is.
func refError(err error, updates []git.RefUpdate) error {
	name := updates[0].Name
	switch {
	case errors.Is(err, git.ErrStaleRef):
		return &wrapped{app: apperr.Refused("Could not update " + name + ". Please refresh and try again."), cause: err}
	case errors.Is(err, git.ErrReferenceExists), errors.Is(err, git.ErrInvalidRefName):
		short, _ := strings.CutPrefix(name, git.BranchPrefix)
		return &wrapped{app: apperr.Refused("Something went wrong when we tried to create '" + short + "' for you: Branch name is invalid"), cause: err}
	}
	return err
}

// wrapped is an application error that keeps the error it was mapped from, so that callers can
// still test the cause with errors.Is.
type wrapped struct {
	app   *apperr.Error
	cause error
}

func (e *wrapped) Error() string   { return e.app.Error() }
func (e *wrapped) Unwrap() []error { return []error{e.app, e.cause} }
