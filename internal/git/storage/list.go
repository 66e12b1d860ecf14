package storage

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Found is a project repository found on disk.
type Found struct {
	Storage string
	RelPath string // as HashedPath lays it out
	ModTime time.Time
}

// hashedRepo matches the relative path of a project repository (HashedPath), wikis excluded.
var hashedRepo = regexp.MustCompile(`^@hashed/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}\.git$`)

// Repositories lists the project repositories under every storage root (removed and
// half-created ones excluded), so that they can be reconciled with the projects.
func (s *Storage) Repositories(ctx context.Context) ([]Found, error) {
	var out []Found
	for _, name := range s.names {
		root := s.roots[name]
		hashed := filepath.Join(root, "@hashed")
		err := filepath.WalkDir(hashed, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == hashed {
					return filepath.SkipDir
				}
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if !d.IsDir() || p == hashed {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			if filepath.Ext(p) != ".git" {
				return nil
			}
			if hashedRepo.MatchString(filepath.ToSlash(rel)) {
				if info, err := d.Info(); err == nil {
					out = append(out, Found{Storage: name, RelPath: filepath.ToSlash(rel), ModTime: info.ModTime()})
				}
			}
			return filepath.SkipDir
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
