package git

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"anvil/internal/git/gitcmd"
)

// MergeBase returns the best common ancestor of revs[0] and the others, with git merge-base's
// semantics for more than two (the merge base of the first and a hypothetical merge of the
// rest; GitLab's merge_base endpoint). Unrelated commits fail with ErrUnrelatedHistories.
func (r *Repository) MergeBase(ctx context.Context, revs ...string) (ObjectID, error) {
	if len(revs) < 2 {
		return "", fmt.Errorf("%w: merge base needs two revisions", ErrInvalidArgument)
	}
	ids, err := r.mergeBase(ctx, gitcmd.New("merge-base"), revs)
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// MergeBases returns every best common ancestor of a and b (merge-base --all; criss-cross
// merges have several).
func (r *Repository) MergeBases(ctx context.Context, a, b string) ([]ObjectID, error) {
	return r.mergeBase(ctx, gitcmd.New("merge-base", "--all"), []string{a, b})
}

func (r *Repository) mergeBase(ctx context.Context, cmd *gitcmd.Cmd, revs []string) ([]ObjectID, error) {
	for _, rev := range revs {
		if err := ValidateRevision(rev); err != nil {
			return nil, err
		}
	}
	out, err := r.output(ctx, cmd.Arg(revs...))
	switch {
	case gitcmd.ExitCode(err) == 1 && len(bytes.TrimSpace(out)) == 0:
		return nil, fmt.Errorf("merge base: %w", ErrUnrelatedHistories)
	case stderrHas(err, "Not a valid", "not a valid"):
		return nil, fmt.Errorf("merge base: %w: %w", ErrReferenceNotFound, err)
	case err != nil:
		return nil, fmt.Errorf("merge base: %w", err)
	}
	var ids []ObjectID
	for _, l := range strings.Fields(string(out)) {
		ids = append(ids, ObjectID(l))
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("merge base: %w", ErrUnrelatedHistories)
	}
	return ids, nil
}

// IsAncestor reports whether ancestor is reachable from descendant (a commit is its own
// ancestor): "is this branch merged", "is this a fast-forward".
func (r *Repository) IsAncestor(ctx context.Context, ancestor, descendant string) (bool, error) {
	for _, rev := range []string{ancestor, descendant} {
		if err := ValidateRevision(rev); err != nil {
			return false, err
		}
	}
	err := r.run(ctx, gitcmd.New("merge-base", "--is-ancestor").Arg(ancestor, descendant))
	switch {
	case err == nil:
		return true, nil
	case gitcmd.ExitCode(err) == 1:
		return false, nil
	case stderrHas(err, "Not a valid", "not a valid"):
		return false, fmt.Errorf("is ancestor: %w: %w", ErrReferenceNotFound, err)
	}
	return false, fmt.Errorf("is ancestor: %w", err)
}

// MergeTreeOptions adjust MergeTree.
type MergeTreeOptions struct {
	// AllowUnrelatedHistories merges commits without a common ancestor (as if from an empty
	// tree); otherwise that fails with ErrUnrelatedHistories.
	AllowUnrelatedHistories bool
}

// MergeTree merges commits ours and theirs without a work tree (merge-tree --write-tree) and
// returns the merged tree, written to the object store. Conflicts fail with a *ConflictError
// (errors.Is ErrConflict) listing the paths.
func (r *Repository) MergeTree(ctx context.Context, ours, theirs string, opts MergeTreeOptions) (ObjectID, error) {
	for _, rev := range []string{ours, theirs} {
		if err := ValidateRevision(rev); err != nil {
			return "", err
		}
	}
	cmd := gitcmd.New("merge-tree", "--write-tree", "--name-only", "-z", "--no-messages")
	if opts.AllowUnrelatedHistories {
		cmd.Flag("--allow-unrelated-histories")
	}
	return r.mergeTree(ctx, cmd.Arg(ours, theirs))
}

func (r *Repository) mergeTree(ctx context.Context, cmd *gitcmd.Cmd) (ObjectID, error) {
	out, err := r.output(ctx, cmd)
	code := gitcmd.ExitCode(err)
	tree, _, _ := strings.Cut(string(out), "\x00")
	tree = strings.TrimSpace(tree)
	switch {
	case stderrHas(err, "not something we can merge", "Not a valid", "not a valid"):
		return "", fmt.Errorf("merge: %w: %w", ErrReferenceNotFound, err)
	case err != nil && code == 1 && IsFullObjectID(tree):
		fields := strings.Split(string(out), "\x00")
		var paths []string
		seen := map[string]bool{}
		for _, f := range fields[1:] {
			if f == "" {
				break // end of the conflicted-file list
			}
			if !seen[f] {
				seen[f] = true
				paths = append(paths, f)
			}
		}
		return "", &ConflictError{Paths: paths}
	case stderrHas(err, "unrelated histories"):
		return "", fmt.Errorf("merge: %w", ErrUnrelatedHistories)
	case err != nil:
		return "", fmt.Errorf("merge: %w", err)
	}
	if !IsFullObjectID(tree) {
		return "", fmt.Errorf("merge: unexpected output %q", out)
	}
	return ObjectID(tree), nil
}

// ChangeOptions select the change CherryPickTree or RevertTree applies.
type ChangeOptions struct {
	// Commit is the commit whose change is applied (or undone).
	Commit ObjectID
	// Onto is the commit the change is applied to (the target branch's tip).
	Onto ObjectID
	// Mainline is the 1-based parent of a merge Commit the change is taken against; 0 means 1
	// for merge commits (as GitLab does).
	Mainline int
}

// CherryPickTree applies the change Commit introduced (against its parent) to Onto and
// returns the resulting tree, without writing a commit. Conflicts fail with a *ConflictError;
// a change already present fails with ErrEmptyChange.
func (r *Repository) CherryPickTree(ctx context.Context, opts ChangeOptions) (ObjectID, error) {
	return r.applyChange(ctx, opts, false)
}

// RevertTree undoes on Onto the change Commit introduced and returns the resulting tree, with
// the failures of CherryPickTree.
func (r *Repository) RevertTree(ctx context.Context, opts ChangeOptions) (ObjectID, error) {
	return r.applyChange(ctx, opts, true)
}

// applyChange is a three-way merge of Onto with Commit's change. For a cherry-pick the merge
// base is Commit's parent and "theirs" is Commit; for a revert the base is Commit and "theirs"
// its parent.
//
// git 2.40+ takes the base directly (merge-tree --merge-base). Older git (2.39 here) only
// merges two commits at their own merge base, so the same merge is set up with synthetic
// commits: S (the base tree, no parent), X (Onto's tree, parent S) and Y (theirs' tree, parent
// S) have exactly one merge base, S. These three small objects are left unreferenced for
// housekeeping to prune.
func (r *Repository) applyChange(ctx context.Context, opts ChangeOptions, revert bool) (ObjectID, error) {
	what := "cherry-pick"
	if revert {
		what = "revert"
	}
	if err := opts.Commit.Validate(); err != nil {
		return "", err
	}
	if err := opts.Onto.Validate(); err != nil {
		return "", err
	}
	commits, err := r.ReadCommits(ctx, []ObjectID{opts.Commit, opts.Onto})
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	change, onto := commits[0], commits[1]
	mainline := opts.Mainline
	if mainline == 0 && len(change.Parents) > 1 {
		mainline = 1
	}
	var parent *Commit
	switch {
	case mainline > len(change.Parents) || mainline < 0 || (mainline > 0 && len(change.Parents) < 2):
		return "", fmt.Errorf("%s: %w: commit %s has no parent %d", what, ErrInvalidArgument, change.ID, mainline)
	case len(change.Parents) > 0:
		if mainline == 0 {
			mainline = 1
		}
		ps, err := r.ReadCommits(ctx, []ObjectID{change.Parents[mainline-1]})
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		parent = ps[0]
	}
	// base and theirs as (commit, tree); a root commit's parent is the empty tree.
	parentID, parentTree := ObjectID(""), EmptyTreeOID
	if parent != nil {
		parentID, parentTree = parent.ID, parent.Tree
	}
	baseID, baseTree, theirsID, theirsTree := parentID, parentTree, change.ID, change.Tree
	if revert {
		baseID, baseTree, theirsID, theirsTree = change.ID, change.Tree, parentID, parentTree
	}
	var tree ObjectID
	if r.c.runner.Version().AtLeast(mergeBaseVersion) && baseID != "" && theirsID != "" {
		cmd := gitcmd.New("merge-tree", "--write-tree", "--name-only", "-z", "--no-messages").
			Option("--merge-base", string(baseID)).Arg(string(onto.ID), string(theirsID))
		tree, err = r.mergeTree(ctx, cmd)
	} else {
		tree, err = r.syntheticMerge(ctx, baseTree, onto.Tree, theirsTree)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if tree == onto.Tree {
		return "", fmt.Errorf("%s: %w", what, ErrEmptyChange)
	}
	return tree, nil
}

// syntheticIdentity signs the throw-away commits of syntheticMerge; a fixed date makes the
// same inputs give the same objects.
var syntheticIdentity = Signature{Name: "Anvil", Email: "anvil@localhost", When: time.Unix(0, 0).UTC()}

// syntheticMerge merges ours and theirs (trees) as changes from base (a tree).
func (r *Repository) syntheticMerge(ctx context.Context, base, ours, theirs ObjectID) (ObjectID, error) {
	write := func(tree ObjectID, parents ...ObjectID) (ObjectID, error) {
		return r.CommitTree(ctx, CommitTreeOptions{Tree: tree, Parents: parents, Message: "synthetic\n",
			Author: syntheticIdentity, Committer: syntheticIdentity})
	}
	s, err := write(base)
	if err != nil {
		return "", err
	}
	x, err := write(ours, s)
	if err != nil {
		return "", err
	}
	y, err := write(theirs, s)
	if err != nil {
		return "", err
	}
	cmd := gitcmd.New("merge-tree", "--write-tree", "--name-only", "-z", "--no-messages").Arg(string(x), string(y))
	return r.mergeTree(ctx, cmd)
}
