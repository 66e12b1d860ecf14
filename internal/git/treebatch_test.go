package git_test

import (
	"testing"

	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTreeEntriesAt(t *testing.T) {
	repo := history(t)
	head := string(repo.Commit("rename"))
	paths := []string{"README.md", "docs/manual.md", "missing.txt", "docs", "docs/nope/deeper.md", "../x", "", "run.sh", "README.md", "assets/bin.dat/x"}
	got, err := repo.TreeEntriesAt(ctx, head, paths)
	require.NoError(t, err)
	require.Len(t, got, len(paths))
	for i, p := range paths {
		want, err := repo.TreeEntryAt(ctx, head, p)
		if p == "" || err != nil {
			assert.Nil(t, got[i], "%q has no entry", p)
			continue
		}
		require.NotNil(t, got[i], p)
		assert.Equal(t, *want, *got[i], p)
	}
	assert.Equal(t, "100755", got[7].Mode, "run.sh is executable")
	assert.Equal(t, int64(len("# Project\n\nHello, world.\n")), got[0].Size)

	_, err = repo.TreeEntriesAt(ctx, "nope", []string{"README.md"})
	assert.ErrorIs(t, err, git.ErrReferenceNotFound)

	t.Run("blobs in one read", func(t *testing.T) {
		blobs, err := repo.ReadBlobs(ctx, []git.ObjectID{got[0].ID, got[1].ID}, -1)
		require.NoError(t, err)
		assert.Equal(t, "# Project\n\nHello, world.\n", string(blobs[0].Data))
		assert.Equal(t, "line 1\nline 2\nline 3\nline 4\nline 5\n", string(blobs[1].Data))
		short, err := repo.ReadBlobs(ctx, []git.ObjectID{got[0].ID}, 3)
		require.NoError(t, err)
		assert.Equal(t, "# P", string(short[0].Data))
		assert.True(t, short[0].Truncated)
		_, err = repo.ReadBlobs(ctx, []git.ObjectID{got[3].ID}, -1)
		assert.ErrorIs(t, err, git.ErrObjectNotFound, "a tree is not a blob")
	})
}

func TestFlatPaths(t *testing.T) {
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{Label: "init", Files: map[string]string{
		"a/b/c/d.txt":                 "x", // a → a/b/c (c holds a file)
		"e/f.txt":                     "x", // e stays e
		"g/h/i/j/k/l/m/n/o/p/q/r.txt": "x", // deeper than the limit
		"s/t/u.txt":                   "x",
		"s/v/w.txt":                   "x", // s holds two directories: s
		"top.txt":                     "x",
	}}}})
	got, err := repo.FlatPaths(ctx, "main", "", 9)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"a": "a/b/c",
		"e": "e",
		"g": "g/h/i/j/k/l/m/n/o/p",
		"s": "s",
	}, got)
	got, err = repo.FlatPaths(ctx, "main", "s", 9)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"s/t": "s/t", "s/v": "s/v"}, got)
	_, err = repo.FlatPaths(ctx, "main", "top.txt", 9)
	assert.ErrorIs(t, err, git.ErrPathNotFound)
	_, err = repo.FlatPaths(ctx, "main", "nope", 9)
	assert.ErrorIs(t, err, git.ErrPathNotFound)
}
