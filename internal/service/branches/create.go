package branches

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/refs"
	"anvil/internal/service/repos"
)

// GitLab's refusals of a new branch (Branches::CreateService and its validation).
const (
	msgInvalidName = "Branch name is invalid"
	msgExists      = "Branch already exists"
)

// CreateInput is POST /projects/:id/repository/branches.
type CreateInput struct {
	// Branch is the new branch's name (branch).
	Branch string
	// Ref is where it starts: a branch, tag or commit id (ref).
	Ref string
}

// Create makes the branch in.Branch at in.Ref in the project ref names, with GitLab's checks in
// its order: push access (403), an empty repository first gets its default branch with an
// empty README.md (as GitLab does), the name must be valid ("Branch name is invalid") and free
// ("Branch already exists"), the ref must resolve to a commit ("Invalid reference name: <ref>"),
// and the push rules apply: no 40-hex-digit names, and a protected name needs a rule that lets
// the caller push. Names and refs are validated before any git process, so no user value can
// reach git as an option. The push is recorded like any other.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, projectRef string, in CreateInput) (*ent.Project, Branch, error) {
	p, repo, err := s.open.Write(ctx, actor, projectRef)
	if err != nil {
		return nil, Branch{}, err
	}
	has, err := repo.HasBranches(ctx)
	if err != nil {
		return nil, Branch{}, err
	}
	if !has {
		if err := s.createDefaultBranch(ctx, actor, p, repo); err != nil {
			return nil, Branch{}, err
		}
	}
	if !refs.ValidBranchName(in.Branch) {
		return nil, Branch{}, apperr.Refused(msgInvalidName)
	}
	if _, err := repo.Branch(ctx, in.Branch); err == nil {
		return nil, Branch{}, apperr.Refused(msgExists)
	} else if !missing(err) {
		return nil, Branch{}, err
	}
	target, err := resolveRef(ctx, repo, in.Ref)
	if err != nil {
		return nil, Branch{}, err
	}
	if err := s.checkCreate(ctx, actor, p, in.Branch); err != nil {
		return nil, Branch{}, err
	}
	if err := s.repos.UpdateRefs(ctx, actor, p, repo, false, git.RefUpdate{Name: git.BranchRef(in.Branch), NewOID: target, OldOID: git.ZeroOID}); err != nil {
		return nil, Branch{}, createErr(ctx, repo, in.Branch, err)
	}
	b, err := find(ctx, repo, in.Branch)
	if err != nil {
		return nil, Branch{}, err
	}
	if err := s.fill(ctx, actor, p, repo, &b); err != nil {
		return nil, Branch{}, err
	}
	return p, b, nil
}

// resolveRef finds the commit ref names; anything unusable is "Invalid reference name: <ref>".
func resolveRef(ctx context.Context, repo *git.Repository, ref string) (git.ObjectID, error) {
	bad := apperr.Refused("Invalid reference name: " + ref)
	if git.ValidateRevision(ref) != nil {
		return "", bad
	}
	id, err := repo.ResolveCommit(ctx, ref)
	if err != nil {
		if missing(err) || errors.Is(err, git.ErrInvalidObjectID) {
			return "", bad
		}
		return "", err
	}
	return id, nil
}

// checkCreate applies the push rules GitLab's hook checks on a new branch: a name git could
// take for a commit id is refused, and a protected name needs a push rule admitting the caller
// (refused with GitLab's "not allowed to create protected branches" message).
func (s *Service) checkCreate(ctx context.Context, actor *authz.Actor, p *ent.Project, name string) error {
	if refs.LooksLikeObjectID(name) {
		return apperr.Refused(protectedbranches.MsgHexBranchName)
	}
	err := s.protected.CanPush(ctx, actor, p, name)
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindForbidden {
		rules, rerr := s.rules(ctx, p)
		if rerr != nil {
			return rerr
		}
		if isProtected(rules, name) {
			return apperr.Refused(protectedbranches.MsgCreateProtected)
		}
	}
	return err
}

// createErr maps a failed branch creation: another request created it first, or the name
// clashes with an existing branch ("a" blocks "a/b" and the reverse).
func createErr(ctx context.Context, repo *git.Repository, name string, err error) error {
	if errors.Is(err, git.ErrReferenceExists) || errors.Is(err, git.ErrStaleRef) {
		if _, berr := repo.Branch(ctx, name); berr == nil {
			return apperr.Refused(msgExists)
		}
		return apperr.Refused("Failed to create branch '" + name + "': a branch with a conflicting name exists")
	}
	return err
}

// createDefaultBranch gives an empty repository its default branch with an empty README.md
// committed by the caller, as GitLab's branch creation does before branching, so that "ref"
// can name it. The default branch's protection applies to that first commit.
func (s *Service) createDefaultBranch(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository) error {
	head, err := repo.Head(ctx)
	if err != nil {
		return err
	}
	if err := s.protected.CanPush(ctx, actor, p, head); err != nil {
		if e, ok := apperr.As(err); ok && e.Kind == apperr.KindForbidden {
			return apperr.Refused(protectedbranches.MsgPushProtected)
		}
		return err
	}
	tree, err := repo.EditTree(ctx, "", []git.TreeAction{{Action: git.ActionCreate, Path: "README.md", Content: []byte{}}})
	if err != nil {
		return err
	}
	sig := refs.Signature(actor)
	_, err = s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: head, Old: git.ZeroOID, WasEmpty: true,
		Commit: git.CommitTreeOptions{Tree: tree, Message: "Add README.md", Author: sig, Committer: sig}})
	if errors.Is(err, git.ErrStaleRef) || errors.Is(err, git.ErrReferenceExists) {
		return nil // a concurrent push created it first; branch from that
	}
	return err
}
