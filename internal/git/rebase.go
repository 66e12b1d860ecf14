package git

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// RebaseOptions describe a rebase of Upstream..Head onto Onto.
type RebaseOptions struct {
	// Head is the tip whose commits are replayed (the source branch).
	Head ObjectID
	// Onto is where they are replayed (the target branch's tip); the commits replayed are those
	// of Head that Onto does not have (Onto..Head), as git rebase picks them.
	Onto ObjectID
	// Committer signs the new commits (a zero When means now); authors are kept.
	Committer Signature
}

// RebaseResult is what Rebase wrote.
type RebaseResult struct {
	// Head is the new tip (Onto itself when nothing was left to replay).
	Head ObjectID
	// Replayed counts the commits written; Skipped those whose change Onto already had.
	Replayed, Skipped int
}

// Rebase replays the commits of Onto..Head, oldest first, on top of Onto without a work tree:
// each commit's change is applied with CherryPickTree (a three-way merge-tree against its
// parent) and written with its author and message and a new committer. Like git rebase, merge
// commits are dropped (their changes arrive through the commits they merged) and commits that
// become empty are skipped. A conflict fails with a *ConflictError naming the commit's paths;
// nothing is referenced, so a failed rebase leaves only unreachable objects. When Onto already
// contains Head (or Head descends from Onto, so there is nothing to move) Head is returned
// unchanged.
func (r *Repository) Rebase(ctx context.Context, opts RebaseOptions) (RebaseResult, error) {
	if err := opts.Head.Validate(); err != nil {
		return RebaseResult{}, err
	}
	if err := opts.Onto.Validate(); err != nil {
		return RebaseResult{}, err
	}
	if ok, err := r.IsAncestor(ctx, string(opts.Onto), string(opts.Head)); err != nil {
		return RebaseResult{}, fmt.Errorf("rebase: %w", err)
	} else if ok {
		return RebaseResult{Head: opts.Head}, nil // already on top of Onto
	}
	commits, err := r.Log(ctx, LogOptions{Revisions: []string{string(opts.Head), "^" + string(opts.Onto)},
		NoMerges: true, Order: OrderTopo})
	if err != nil {
		return RebaseResult{}, fmt.Errorf("rebase: %w", err)
	}
	slices.Reverse(commits) // oldest first
	res := RebaseResult{Head: opts.Onto}
	for _, c := range commits {
		tree, err := r.CherryPickTree(ctx, ChangeOptions{Commit: c.ID, Onto: res.Head})
		switch {
		case errors.Is(err, ErrEmptyChange):
			res.Skipped++
			continue
		case err != nil:
			return RebaseResult{}, fmt.Errorf("rebase of %s: %w", c.ID, err)
		}
		id, err := r.CommitTree(ctx, CommitTreeOptions{Tree: tree, Parents: []ObjectID{res.Head},
			Message: c.Message, Author: c.Author, Committer: opts.Committer})
		if err != nil {
			return RebaseResult{}, fmt.Errorf("rebase of %s: %w", c.ID, err)
		}
		res.Head = id
		res.Replayed++
	}
	return res, nil
}
