package git_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// emptyRepo makes an empty bare repository with the client of src.
func emptyRepo(t *testing.T, src *gittest.Repo) *git.Repository {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dst.git")
	require.NoError(t, src.Client.InitBare(ctx, path, "main"))
	return src.Client.Repository(path)
}

// refsOf lists every ref of repo.
func refsOf(t *testing.T, repo *git.Repository) map[string]git.ObjectID {
	t.Helper()
	refs, err := repo.ListRefs(ctx, git.ListRefsOptions{})
	require.NoError(t, err)
	out := map[string]git.ObjectID{}
	for _, r := range refs {
		out[r.Name] = r.Target
	}
	return out
}

func TestFetchFrom_refs(t *testing.T) {
	src := history(t)
	refs, err := src.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix, git.TagPrefix}})
	require.NoError(t, err)
	require.Len(t, refs, 4)

	t.Run("every branch and tag into an empty repository", func(t *testing.T) {
		dst := emptyRepo(t, src)
		require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: refs}))
		assert.Equal(t, refsOf(t, src.Repository), refsOf(t, dst), "the same refs, and no temporary ref left")
		// The objects are complete and valid: git's own check agrees.
		gittest.Git(t, dst.Path(), nil, "fsck", "--strict", "--no-dangling")
		c, err := dst.ReadCommit(ctx, "v1.0")
		require.NoError(t, err)
		assert.Equal(t, src.Commit("init"), c.ID, "the annotated tag came with its tag object")
	})

	t.Run("an existing ref fails the whole fetch and creates nothing", func(t *testing.T) {
		dst := emptyRepo(t, src)
		require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: refs[:1]}))
		before := refsOf(t, dst)
		err := dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: refs})
		require.Error(t, err)
		assert.ErrorIs(t, err, git.ErrStaleRef)
		assert.Equal(t, before, refsOf(t, dst))
	})

	t.Run("refs whose objects are there already", func(t *testing.T) {
		dst := emptyRepo(t, src)
		require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: refs}))
		copyRef := git.Ref{Name: "refs/heads/copy", Target: src.Commit("merge")}
		require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: []git.Ref{copyRef}}))
		assert.Equal(t, src.Commit("merge"), refsOf(t, dst)["refs/heads/copy"])
	})

	t.Run("bad input is refused before git runs", func(t *testing.T) {
		dst := emptyRepo(t, src)
		err := dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Refs: []git.Ref{{Name: "refs/heads/-x", Target: src.Commit("init")}}})
		assert.ErrorIs(t, err, git.ErrInvalidRefName)
		err = dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Objects: []git.ObjectID{"main"}})
		assert.ErrorIs(t, err, git.ErrInvalidObjectID)
	})
}

func TestFetchFrom_objects(t *testing.T) {
	src := history(t)
	// dst has the history up to "readme"; the fork's newer commits are what it lacks.
	dst := emptyRepo(t, src)
	require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{
		Refs: []git.Ref{{Name: "refs/heads/main", Target: src.Commit("readme")}},
	}))
	ok, err := dst.HasObject(ctx, src.Commit("rename"))
	require.NoError(t, err)
	require.False(t, ok)

	require.NoError(t, dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Objects: []git.ObjectID{src.Commit("rename")}}))
	for _, label := range []string{"rename", "merge", "feature"} {
		ok, err := dst.HasObject(ctx, src.Commit(label))
		require.NoError(t, err)
		assert.True(t, ok, label)
	}
	diff, err := dst.Diff(ctx, string(src.Commit("readme")), string(src.Commit("rename")), git.DiffOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, diff.Files, "the trees and blobs came along")
	assert.Equal(t, map[string]git.ObjectID{"refs/heads/main": src.Commit("readme")}, refsOf(t, dst), "no ref left behind")

	t.Run("an object the source lacks", func(t *testing.T) {
		err := dst.FetchFrom(ctx, src.Repository, git.FetchOptions{Objects: []git.ObjectID{git.ObjectID(strings.Repeat("ab", 20))}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "upload-pack")
		assert.Equal(t, map[string]git.ObjectID{"refs/heads/main": src.Commit("readme")}, refsOf(t, dst))
	})

	t.Run("a source that is not a repository", func(t *testing.T) {
		missing := src.Client.Repository(filepath.Join(t.TempDir(), "nothing.git"))
		err := dst.FetchFrom(ctx, missing, git.FetchOptions{Objects: []git.ObjectID{git.ObjectID(strings.Repeat("cd", 20))}})
		require.Error(t, err)
		assert.True(t, errors.Is(err, git.ErrRepositoryNotFound), "%v", err)
	})

	t.Run("a cancelled context fails and leaves no ref", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		fresh := emptyRepo(t, src)
		err := fresh.FetchFrom(cctx, src.Repository, git.FetchOptions{Objects: []git.ObjectID{src.Commit("rename")}})
		require.Error(t, err)
		assert.Empty(t, refsOf(t, fresh))
	})
}
