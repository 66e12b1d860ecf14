package git

import (
	"context"
	"fmt"
	"strings"

	"anvil/internal/git/gitcmd"
)

// MergedBy reports whether the move of a branch from before to after brought head in (head is
// reachable from after and was not from before; a before of ZeroOID, a created branch, brings
// nothing in, as GitLab's refresh sees no new commits then), and which commit did: head itself
// when it lies on after's first-parent line (a fast-forward or a push of the commits
// themselves), else the oldest commit of that line whose history holds head (the merge commit
// that brought it in). This is GitLab's BranchPushMergeCommitAnalyzer, which takes the branch's
// first-parent line for the trail of the branch.
func (r *Repository) MergedBy(ctx context.Context, head, before, after string) (ObjectID, bool, error) {
	if ObjectID(before).IsZero() || ObjectID(after).IsZero() {
		return "", false, nil
	}
	for _, rev := range []string{head, before, after} {
		if err := ValidateRevision(rev); err != nil {
			return "", false, err
		}
	}
	in, err := r.IsAncestor(ctx, head, after)
	if err != nil || !in {
		return "", false, err
	}
	if in, err = r.IsAncestor(ctx, head, before); err != nil || in {
		return "", false, err
	}
	out, err := r.output(ctx, gitcmd.New("rev-list").Flag("--first-parent").Arg(after, "^"+before))
	if err != nil {
		return "", false, revisionErr(err, "merged by")
	}
	line := strings.Fields(string(out)) // newest first; line[0] is after, which holds head
	if len(line) == 0 {
		return "", false, fmt.Errorf("merged by: no commit between %s and %s", before, after)
	}
	// Along a first-parent line "holds head" is true up to some commit and false past it:
	// find the last commit that holds it by bisection.
	lo, hi := 0, len(line)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		holds, err := r.IsAncestor(ctx, head, line[mid])
		if err != nil {
			return "", false, err
		}
		if holds {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return ObjectID(line[lo]), true, nil
}
