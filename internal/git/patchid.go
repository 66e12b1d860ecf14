package git

import (
	"bytes"
	"context"
	"fmt"

	"anvil/internal/git/gitcmd"
)

// PatchID returns the stable patch id of the diff from..to (git patch-id --stable over
// diff-tree -p --full-index, GitLab's patch_id_sha): the same changes give the same id
// whatever commits carry them. An empty diff has none ("").
func (r *Repository) PatchID(ctx context.Context, from, to string) (ObjectID, error) {
	cmd, err := diffCommand(from, to, DiffOptions{NoRenames: true})
	if err != nil {
		return "", err
	}
	cmd.Flag("-p")
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	diff, err := r.c.runner.Start(ctx, r.path, cmd)
	if err != nil {
		return "", fmt.Errorf("patch id: %w", err)
	}
	_ = diff.Stdin.Close()
	// patch-id reads diff-tree's output straight from its pipe.
	out, perr := r.output(ctx, gitcmd.New("patch-id", "--stable"), gitcmd.Stdin(diff.Stdout))
	if perr != nil {
		diff.Kill()
	}
	if err := diff.Wait(); err != nil && perr == nil {
		return "", revisionErr(r.missing(err), "patch id")
	}
	if perr != nil {
		return "", fmt.Errorf("patch id: %w", perr)
	}
	id, _, _ := bytes.Cut(bytes.TrimSpace(out), []byte(" "))
	if len(id) == 0 {
		return "", nil
	}
	oid := ObjectID(id)
	if err := oid.Validate(); err != nil {
		return "", fmt.Errorf("patch id: %w", err)
	}
	return oid, nil
}
