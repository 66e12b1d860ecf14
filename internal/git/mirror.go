package git

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// tmpRefsPrefix holds refs that exist only while an operation runs (FetchFrom's); they are
// neither copied nor counted in a checksum.
const tmpRefsPrefix = "refs/tmp/"

// MirrorFrom makes r, an empty repository, a copy of src: every ref of src (branches, tags and
// any other refs/, at the same targets) with the objects they reach, copied through FetchFrom
// (upload-pack into receive-pack, every object checked), then HEAD naming the same branch.
// Callers compare RefsChecksum of both ends before trusting the copy.
func (r *Repository) MirrorFrom(ctx context.Context, src *Repository) error {
	refs, err := src.ListRefs(ctx, ListRefsOptions{})
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	keep := refs[:0]
	for _, ref := range refs {
		if !strings.HasPrefix(ref.Name, tmpRefsPrefix) {
			keep = append(keep, ref)
		}
	}
	if len(keep) > 0 {
		if err := r.FetchFrom(ctx, src, FetchOptions{Refs: keep}); err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
	}
	head, err := src.Head(ctx)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if err := r.SetHead(ctx, head); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	return nil
}

// RefsChecksum sums what a repository's refs say: the branch HEAD names and every ref (name
// and target, temporary refs aside), in name order, as the hex SHA-256 of those lines. Two
// repositories with the same checksum hold the same history under the same names.
func (r *Repository) RefsChecksum(ctx context.Context) (string, error) {
	head, err := r.Head(ctx)
	if err != nil {
		return "", fmt.Errorf("checksum: %w", err)
	}
	refs, err := r.ListRefs(ctx, ListRefsOptions{})
	if err != nil {
		return "", fmt.Errorf("checksum: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "HEAD %s\n", head)
	for _, ref := range refs {
		if strings.HasPrefix(ref.Name, tmpRefsPrefix) {
			continue
		}
		fmt.Fprintf(h, "%s %s\n", ref.Target, ref.Name)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
