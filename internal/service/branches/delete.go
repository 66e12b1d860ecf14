package branches

import (
	"context"
	"errors"
	"strings"
	"time"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/refs"
	"anvil/internal/service/repos"
)

// Delete removes the branch name of the project ref names, with GitLab's checks in its order:
// push access (403), a valid name (400 "The branch refname is invalid"), an existing branch
// (404 Branch Not Found), If-Unmodified-Since against the tip's authored date (412), then the
// push rules: the default branch cannot be deleted (400), and a protected branch only by those
// who administer the project (400 with GitLab's message). The ref is removed only if it still
// points where it was read, so a concurrent push is never lost.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, projectRef, name string, unmodifiedSince *time.Time) error {
	p, repo, err := s.open.Write(ctx, actor, projectRef)
	if err != nil {
		return err
	}
	b, err := find(ctx, repo, name)
	if err != nil {
		return err
	}
	if err := refs.CheckUnmodifiedSince(unmodifiedSince, b.Commit); err != nil {
		return err
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return err
	}
	if name == head {
		return apperr.Refused(protectedbranches.MsgDeleteDefault)
	}
	if err := s.protected.CanDelete(ctx, actor, p, name); err != nil {
		return err
	}
	if err := s.repos.UpdateRefs(ctx, actor, p, repo, false, git.RefUpdate{Name: git.BranchRef(name), NewOID: git.ZeroOID, OldOID: b.Commit.ID}); err != nil {
		if errors.Is(err, git.ErrStaleRef) || errors.Is(err, git.ErrReferenceNotFound) {
			return apperr.Refused("Failed to remove branch")
		}
		return err
	}
	return nil
}

// DeleteMerged removes every branch of the project ref names that its default branch contains,
// except the default branch and protected branches (DELETE .../repository/merged_branches).
// It needs push access (403 otherwise; GitLab accepts the request and its worker then
// refuses). The merged branches are found with one git process and removed in one ref
// transaction, each only if it still points where it was read; should another push move one
// meanwhile, the others are removed one by one and the moved one is kept.
func (s *Service) DeleteMerged(ctx context.Context, actor *authz.Actor, projectRef string) error {
	p, repo, err := s.open.Write(ctx, actor, projectRef)
	if err != nil {
		return err
	}
	head, err := repo.Head(ctx)
	if err != nil {
		return err
	}
	tip, err := repo.ResolveCommit(ctx, git.BranchRef(head))
	if err != nil {
		if missing(err) {
			return nil // no default branch: nothing is merged into it
		}
		return err
	}
	merged, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}, Merged: tip})
	if err != nil {
		return err
	}
	rules, err := s.rules(ctx, p)
	if err != nil {
		return err
	}
	var updates []git.RefUpdate
	for _, r := range merged {
		name := r.ShortName()
		if !strings.HasPrefix(r.Name, git.BranchPrefix) || r.Target == tip || name == head || isProtected(rules, name) {
			continue
		}
		updates = append(updates, git.RefUpdate{Name: r.Name, NewOID: git.ZeroOID, OldOID: r.Target})
	}
	if len(updates) == 0 {
		return nil
	}
	done := updates
	if err := repo.UpdateRefs(ctx, updates...); err != nil {
		if !errors.Is(err, git.ErrStaleRef) && !errors.Is(err, git.ErrReferenceNotFound) {
			return err
		}
		done = nil
		for _, u := range updates {
			err := repo.UpdateRef(ctx, u.Name, u.NewOID, u.OldOID)
			switch {
			case err == nil:
				done = append(done, u)
			case errors.Is(err, git.ErrStaleRef), errors.Is(err, git.ErrReferenceNotFound):
			default:
				return err
			}
		}
	}
	recorded := make([]repos.RefUpdate, len(done))
	for i, u := range done {
		recorded[i] = repos.RefUpdate{Old: u.OldOID, New: git.ZeroOID, Ref: u.Name}
	}
	s.repos.RecordRefUpdates(ctx, actor, p, repo, false, recorded...)
	return nil
}
