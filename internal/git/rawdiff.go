package git

import (
	"context"
	"io"

	"anvil/internal/git/gitcmd"
)

// RawDiff writes the plain-text patch of from..to (from "" is the empty tree) to w as git
// writes it: git diff's output with full object ids and renames detected (what GitLab's raw
// diffs serve, Gitaly's RawDiff), streamed, never held whole.
func (r *Repository) RawDiff(ctx context.Context, w io.Writer, from, to string) error {
	f, err := diffSide(from)
	if err != nil {
		return err
	}
	t, err := diffSide(to)
	if err != nil {
		return err
	}
	cmd := gitcmd.New("diff-tree", "-r", "-p", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--full-index").Arg(f, t)
	if err := r.run(ctx, cmd, gitcmd.Stdout(w)); err != nil {
		return revisionErr(r.missing(err), "raw diff")
	}
	return nil
}
