package git

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HasBranchesOnDisk reports whether the repository has at least one branch by reading its ref
// storage (loose refs under refs/heads and the packed-refs file) instead of starting git: project
// listings ask it for up to 100 repositories per page. Lock files of an update in flight do not
// count as branches.
func (r *Repository) HasBranchesOnDisk() (bool, error) {
	found := errors.New("found")
	err := filepath.WalkDir(filepath.Join(r.Path(), "refs", "heads"), func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !strings.HasSuffix(d.Name(), ".lock") {
			return found
		}
		return nil
	})
	switch {
	case errors.Is(err, found):
		return true, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	f, err := os.Open(filepath.Join(r.Path(), "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		// Lines are "<oid> <refname>", with "#" headers and "^<oid>" peeled lines between.
		if _, name, ok := strings.Cut(sc.Text(), " "); ok && strings.HasPrefix(name, BranchPrefix) {
			return true, nil
		}
	}
	return false, sc.Err()
}
