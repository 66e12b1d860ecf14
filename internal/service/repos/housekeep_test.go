package repos_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHousekeep(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	dir := f.repo.Path()
	require.NoError(t, f.svc.Housekeep(ctx, f.p.ID))
	assert.FileExists(t, filepath.Join(dir, "objects", "pack", "multi-pack-index"))
	assert.FileExists(t, filepath.Join(dir, "objects", "info", "commit-graphs", "commit-graph-chain"))
	assert.Contains(t, f.logs.String(), "repository housekeeping")
	assert.Contains(t, f.logs.String(), "repack=geometric")
	// The repository still reads through the API.
	r := f.in.Do(t, "GET", "/projects/"+strconv.Itoa(f.p.ID)+"/repository/files/README.md/raw?ref=main", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "# w\n", string(r.Body))

	t.Run("a project without repository, or gone, needs nothing", func(t *testing.T) {
		require.NoError(t, f.svc.Housekeep(ctx, 999999))
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, f.svc.Housekeep(ctx, f.p.ID))
	})
}
