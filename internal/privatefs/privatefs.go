// Package privatefs keeps the server's files to the server's user: the data directory and
// everything in it (the SQLite database and its WAL and SHM files, repositories, registry
// blobs, hooks, temporary files) is created 0700 for directories and 0600 for files.
package privatefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DirMode and FileMode are the modes of the server's directories and files.
const (
	DirMode  fs.FileMode = 0o700
	FileMode fs.FileMode = 0o600
)

// Secure makes the process create private files from now on (umask 077, which git, SQLite and
// the registry's storage driver all honour), creates dataDir and the other roots (repository
// storages and blob directories kept outside it) as private directories, and tightens the
// modes left by earlier versions: each root becomes 0700 — which alone closes everything under
// it to other users — and the SQLite files 0600. Trees are not walked: a large data directory
// would make every start slow, and the root's mode already protects them.
func Secure(dataDir string, roots ...string) error {
	restrictUmask()
	for _, dir := range append([]string{dataDir}, roots...) {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, DirMode); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		if err := os.Chmod(dir, DirMode); err != nil {
			return fmt.Errorf("restrict %s: %w", dir, err)
		}
	}
	for _, name := range []string{"anvil.db", "anvil.db-wal", "anvil.db-shm"} {
		if err := os.Chmod(filepath.Join(dataDir, name), FileMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("restrict %s: %w", name, err)
		}
	}
	return nil
}
