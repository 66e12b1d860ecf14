package git

import (
	"context"
	"fmt"
)

// MergeCommitOptions describe a merge commit of Theirs into Ours.
type MergeCommitOptions struct {
	// Ours is the first parent (the target branch's tip), Theirs the second (the source's).
	Ours, Theirs ObjectID
	// Message is stored as given.
	Message string
	// Author and Committer sign the commit (Committer defaults to Author).
	Author, Committer Signature
}

// MergeCommit merges Theirs into Ours without a work tree (MergeTree) and writes the merge
// commit, parents Ours then Theirs; no ref moves. Conflicts fail with a *ConflictError (errors.Is
// ErrConflict) listing the paths, unrelated histories with ErrUnrelatedHistories.
func (r *Repository) MergeCommit(ctx context.Context, opts MergeCommitOptions) (ObjectID, error) {
	if err := opts.Ours.Validate(); err != nil {
		return "", err
	}
	if err := opts.Theirs.Validate(); err != nil {
		return "", err
	}
	tree, err := r.MergeTree(ctx, string(opts.Ours), string(opts.Theirs), MergeTreeOptions{})
	if err != nil {
		return "", err
	}
	return r.CommitTree(ctx, CommitTreeOptions{Tree: tree, Parents: []ObjectID{opts.Ours, opts.Theirs},
		Message: opts.Message, Author: opts.Author, Committer: opts.Committer})
}

// SquashOptions describe a squash of the commits Base..Head.
type SquashOptions struct {
	// Base is the commit the squash commit sits on (the merge base of source and target);
	// Head is the source's tip, whose tree the squash commit takes.
	Base, Head ObjectID
	// Message is stored as given.
	Message string
	// Author (GitLab: the merge request's author) and Committer (the merging user).
	Author, Committer Signature
}

// Squash writes one commit with Head's tree on top of Base: every change of Base..Head as a
// single commit, as GitLab squashes a merge request's commits. Base must be an ancestor of
// Head (ErrInvalidArgument otherwise), so the commit's change is exactly the merge request's
// diff. No ref moves.
func (r *Repository) Squash(ctx context.Context, opts SquashOptions) (ObjectID, error) {
	if err := opts.Base.Validate(); err != nil {
		return "", err
	}
	if err := opts.Head.Validate(); err != nil {
		return "", err
	}
	ok, err := r.IsAncestor(ctx, string(opts.Base), string(opts.Head))
	if err != nil {
		return "", fmt.Errorf("squash: %w", err)
	}
	if !ok {
		return "", fmt.Errorf("squash: %w: %s is not an ancestor of %s", ErrInvalidArgument, opts.Base, opts.Head)
	}
	head, err := r.ReadCommit(ctx, string(opts.Head))
	if err != nil {
		return "", fmt.Errorf("squash: %w", err)
	}
	return r.CommitTree(ctx, CommitTreeOptions{Tree: head.Tree, Parents: []ObjectID{opts.Base},
		Message: opts.Message, Author: opts.Author, Committer: opts.Committer})
}
