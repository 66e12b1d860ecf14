package git

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
)

// ObjectsSize returns the bytes the repository's objects take on disk (loose objects and packs),
// without running git: GitLab's repository_size, which counts the objects of a repository and
// not its refs, configuration or hooks, so that an empty repository measures 0.
func (r *Repository) ObjectsSize(ctx context.Context) (int64, error) {
	var total int64
	err := filepath.WalkDir(filepath.Join(r.path, "objects"), func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("objects size: %w", err)
	}
	return total, nil
}
