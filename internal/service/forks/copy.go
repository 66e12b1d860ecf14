package forks

import (
	"context"
	"fmt"

	"anvil/internal/git"
)

// copyRepository gives the empty repository dst the objects and refs of src: every branch and
// tag, or with branch set that branch and the tags it contains (git.Repository.FetchFrom).
func copyRepository(ctx context.Context, src, dst *git.Repository, branch string) error {
	refs, err := refsToCopy(ctx, src, branch)
	if err != nil || len(refs) == 0 {
		return err
	}
	if err := dst.FetchFrom(ctx, src, git.FetchOptions{Refs: refs}); err != nil {
		return fmt.Errorf("copy repository: %w", err)
	}
	return nil
}

// refsToCopy lists what a fork gets: branches and tags, or one branch and its tags.
func refsToCopy(ctx context.Context, src *git.Repository, branch string) ([]git.Ref, error) {
	if branch == "" {
		return src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix, git.TagPrefix}})
	}
	heads, err := src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchRef(branch)}})
	if err != nil {
		return nil, err
	}
	var out []git.Ref
	for _, r := range heads {
		if r.Name == git.BranchRef(branch) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	tags, err := src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.TagPrefix}, Merged: out[0].Target})
	if err != nil {
		return nil, err
	}
	return append(out, tags...), nil
}
