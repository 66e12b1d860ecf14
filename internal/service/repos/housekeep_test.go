package repos_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/projectstatistics"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHousekeep(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	dir := f.repo.Path()
	// The README's commit was the repository's first push: it queued housekeeping.
	f.in.WaitJobs(t)
	st, err := f.in.DB.Client.ProjectStatistics.Query().Where(projectstatistics.ProjectID(f.p.ID)).Only(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, st.PushesSinceGc)
	assert.FileExists(t, filepath.Join(dir, "objects", "pack", "multi-pack-index"))
	assert.FileExists(t, filepath.Join(dir, "objects", "info", "commit-graphs", "commit-graph-chain"))
	require.NoError(t, f.svc.Housekeep(ctx, f.p.ID))
	assert.Contains(t, f.logs.String(), "repository housekeeping")
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
