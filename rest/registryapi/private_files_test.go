package registryapi_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDataDirectory_private checks that the data directory and everything in it belongs to
// the server's user alone: directories 0700 and files 0600 (or read-only for the owner),
// the SQLite database and its WAL and SHM files, repositories written by git, registry blobs
// and uploads included. It lives here because pushing an image (the last kind of data to land
// in the data directory) needs this package's registry helpers. A data directory left 0755 by
// an earlier version is closed again at start.
func TestDataDirectory_private(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.Chmod(dir, 0o755))
	in := servertest.Start(t, func(c *config.Config) { c.DataDir = dir })
	alice, tok := in.NewUser(t, "alice")
	r := in.Do(t, "POST", "/projects", tok, `{"name":"sources","initialize_with_readme":true}`)
	require.Equal(t, 201, r.Status, r.String())
	in.NewProject(t, in.PersonalNamespace(t, alice), "images", "private")
	push(t, in, image(t, time.Now()), "alice/images:v1", creds("alice", tok)...)
	waitRepository(t, in, "alice/images")

	seen := map[string]bool{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			return nil // a link's own mode means nothing; its target is checked where it lives
		case info.IsDir():
			assert.Equal(t, fs.FileMode(0o700), info.Mode().Perm(), "directory %s", rel)
		default:
			assert.Zero(t, info.Mode().Perm()&0o077, "file %s is %v", rel, info.Mode().Perm())
		}
		for _, part := range []string{"anvil.db", "repositories", "registry", "blobs"} {
			if strings.HasPrefix(rel, part) {
				seen[part] = true
			}
		}
		return nil
	}))
	assert.True(t, seen["repositories"], "repositories were checked")
	assert.True(t, seen["registry"] || seen["blobs"], "registry data was checked")
	if os.Getenv("ANVIL_TEST_DATABASE_URL") == "" {
		assert.True(t, seen["anvil.db"], "the database files were checked")
	}
}
