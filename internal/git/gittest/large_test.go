package gittest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// A small LargeSpec gives the history it describes, the same on every run.
func TestBuildLarge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := gittest.NewClient(t)
	spec := gittest.LargeSpec{Commits: 7, Files: 12, Dirs: 3, TagEvery: 3, Branch: "trunk"}
	var heads []git.ObjectID
	for range 2 {
		path := filepath.Join(t.TempDir(), "large.git")
		require.NoError(t, gittest.BuildLarge(ctx, client, path, spec))
		repo := client.Repository(path)

		head, err := repo.Head(ctx)
		require.NoError(t, err)
		require.Equal(t, "trunk", head)
		n, err := repo.CountCommits(ctx, git.LogOptions{Revisions: []string{"trunk"}})
		require.NoError(t, err)
		require.Equal(t, 7, n)
		files, err := repo.ListTree(ctx, "trunk", "", git.ListTreeOptions{Recursive: true})
		require.NoError(t, err)
		var blobs []string
		for _, e := range files {
			if e.Type == git.TypeBlob {
				blobs = append(blobs, e.Path)
			}
		}
		require.Len(t, blobs, 12)
		require.Contains(t, blobs, spec.Path(11))
		require.Equal(t, "dir002/sub2/file00005.txt", spec.Path(5))
		tags := strings.Fields(gittest.Git(t, path, nil, "tag", "--list"))
		require.Equal(t, []string{"v1", "v2"}, tags)
		v2, err := repo.ResolveCommit(ctx, "v2")
		require.NoError(t, err)
		sixth, err := repo.ResolveCommit(ctx, "trunk~1")
		require.NoError(t, err)
		require.Equal(t, sixth, v2, "v2 tags the sixth commit")

		id, err := repo.ResolveCommit(ctx, "trunk")
		require.NoError(t, err)
		heads = append(heads, id)
	}
	require.Equal(t, heads[0], heads[1], "the history is deterministic")

	require.Error(t, gittest.BuildLarge(ctx, client, filepath.Join(t.TempDir(), "bad.git"), gittest.LargeSpec{}))
}
