package branches

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/ent/schema"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/protectedbranches"
)

// flagger fills in the flags of the branches of one project for one caller. It reads the
// protection rules and the caller's push access once; merged status costs one git process for
// the whole page; can_push asks the protected branch service only for protected branches.
type flagger struct {
	s       *Service
	actor   *authz.Actor
	project *ent.Project
	repo    *git.Repository
	head    string
	rules   []*ent.ProtectedBranch
	push    bool
}

func (s *Service) newFlagger(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository) (*flagger, error) {
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	rules, err := s.rules(ctx, p)
	if err != nil {
		return nil, err
	}
	push, err := s.can(ctx, actor, p, authz.PushCode)
	if err != nil {
		return nil, err
	}
	return &flagger{s: s, actor: actor, project: p, repo: repo, head: head, rules: rules, push: push}, nil
}

// fill sets every flag of bs.
func (f *flagger) fill(ctx context.Context, bs []Branch) error {
	merged, err := f.merged(ctx, bs)
	if err != nil {
		return err
	}
	for i := range bs {
		b := &bs[i]
		b.Default = b.Name == f.head
		b.Merged = merged[b.Name]
		var matched []*ent.ProtectedBranch
		for _, r := range f.rules {
			if protectedbranches.Match(r.Name, b.Name) {
				matched = append(matched, r)
			}
		}
		b.Protected = len(matched) > 0
		for _, r := range matched {
			b.DevelopersCanPush = b.DevelopersCanPush || developersCan(r.PushAccessLevels)
			b.DevelopersCanMerge = b.DevelopersCanMerge || developersCan(r.MergeAccessLevels)
		}
		if b.CanPush, err = f.canPush(ctx, b.Name, b.Protected); err != nil {
			return err
		}
	}
	return nil
}

// developersCan reports whether a rule's entries name the Developer role (GitLab's
// ProtectedBranch.developers_can?).
func developersCan(levels []schema.AccessRule) bool {
	for _, l := range levels {
		if l.UserID == nil && l.GroupID == nil && l.DeployKeyID == nil && l.AccessLevel == int(authz.Developer) {
			return true
		}
	}
	return false
}

// canPush decides can_push: push access, and for a protected branch a push rule admitting the
// caller.
func (f *flagger) canPush(ctx context.Context, name string, protected bool) (bool, error) {
	if !f.push {
		return false, nil
	}
	if !protected {
		return true, nil
	}
	err := f.s.protected.CanPush(ctx, f.actor, f.project, name)
	if err == nil {
		return true, nil
	}
	if _, ok := apperr.As(err); ok {
		return false, nil
	}
	return false, err
}

// merged returns the names among bs that the default branch contains without being at its
// commit: one for-each-ref --merged for a page, one merge-base check for a single branch.
func (f *flagger) merged(ctx context.Context, bs []Branch) (map[string]bool, error) {
	out := map[string]bool{}
	if len(bs) == 0 {
		return out, nil
	}
	tip, err := f.repo.ResolveCommit(ctx, git.BranchRef(f.head))
	if err != nil {
		if errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) {
			return out, nil // no default branch yet: nothing is merged into it
		}
		return nil, err
	}
	if len(bs) == 1 {
		b := bs[0]
		if b.Commit == nil || b.Commit.ID == tip {
			return out, nil
		}
		ok, err := f.repo.IsAncestor(ctx, string(b.Commit.ID), string(tip))
		if err != nil {
			return nil, err
		}
		out[b.Name] = ok
		return out, nil
	}
	refs, err := f.repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}, Merged: tip})
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if r.Target != tip {
			out[r.ShortName()] = true
		}
	}
	return out, nil
}
