package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/git/storage"
)

var ctx = context.Background()

func TestHashedPath(t *testing.T) {
	// GitLab's documented example: project 1 lives at @hashed/6b/86/6b86b273....git.
	require.Equal(t, "@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git", storage.HashedPath(1))
	require.Equal(t, "@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.wiki.git", storage.WikiHashedPath(1))
	require.Equal(t, "@snippets/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git", storage.SnippetHashedPath(1))
	require.Equal(t, "@hashed/d4/73/d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35.git", storage.HashedPath(2))
}

func newStorage(t *testing.T, weights map[string]int) (*storage.Storage, map[string]string) {
	t.Helper()
	roots := map[string]string{
		"default": filepath.Join(t.TempDir(), "a"),
		"second":  filepath.Join(t.TempDir(), "b"),
		"retired": filepath.Join(t.TempDir(), "c"),
	}
	s, err := storage.New(gittest.NewClient(t), storage.Config{Roots: roots, Weights: weights})
	require.NoError(t, err)
	return s, roots
}

func TestStorage_config(t *testing.T) {
	c := gittest.NewClient(t)
	for _, tc := range []struct {
		desc string
		cfg  storage.Config
		err  error
	}{
		{"no roots", storage.Config{}, storage.ErrNoStorage},
		{"relative root", storage.Config{Roots: map[string]string{"default": "repos"}}, nil},
		{"weight of an unknown storage", storage.Config{Roots: map[string]string{"default": t.TempDir()}, Weights: map[string]int{"x": 1}}, storage.ErrUnknownStorage},
		{"negative weight", storage.Config{Roots: map[string]string{"default": t.TempDir()}, Weights: map[string]int{"default": -1}}, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := storage.New(c, tc.cfg)
			require.Error(t, err)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
			}
		})
	}
	s, roots := newStorage(t, map[string]int{"default": 1})
	require.Equal(t, []string{"default", "retired", "second"}, s.Names())
	for _, root := range roots {
		st, err := os.Stat(root)
		require.NoError(t, err)
		require.True(t, st.IsDir(), "roots are created")
	}
}

func TestStorage_pick(t *testing.T) {
	s, _ := newStorage(t, map[string]int{"default": 75, "second": 25, "retired": 0})
	counts := map[string]int{}
	for range 4000 {
		name, err := s.Pick()
		require.NoError(t, err)
		counts[name]++
	}
	require.Zero(t, counts["retired"])
	require.InDelta(t, 3000, counts["default"], 200)
	require.InDelta(t, 1000, counts["second"], 200)

	require.NoError(t, s.SetWeights(map[string]int{"second": 5}))
	for range 50 {
		name, err := s.Pick()
		require.NoError(t, err)
		require.Equal(t, "second", name)
	}
	require.NoError(t, s.SetWeights(nil))
	_, err := s.Pick()
	require.ErrorIs(t, err, storage.ErrNoStorage)
	require.ErrorIs(t, s.SetWeights(map[string]int{"nope": 1}), storage.ErrUnknownStorage)
}

func TestStorage_paths(t *testing.T) {
	s, roots := newStorage(t, nil)
	rel := storage.HashedPath(42)
	p, err := s.Path("second", rel)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(roots["second"], rel), p)
	for _, bad := range []string{"", "/abs.git", "../x.git", "a/../../x.git", "a//b.git", "x", "@hashed/x+creating+1.git", "@hashed/x+1+deleted.git"} {
		_, err := s.Path("default", bad)
		require.ErrorIs(t, err, storage.ErrInvalidPath, bad)
	}
	_, err = s.Path("nope", rel)
	require.ErrorIs(t, err, storage.ErrUnknownStorage)
}

func TestStorage_lifecycle(t *testing.T) {
	s, roots := newStorage(t, map[string]int{"default": 1})
	rel := storage.HashedPath(7)

	ok, err := s.Exists("default", rel)
	require.NoError(t, err)
	require.False(t, ok)

	repo, err := s.Create(ctx, "default", rel, "trunk")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(roots["default"], rel), repo.Path())
	ok, err = s.Exists("default", rel)
	require.NoError(t, err)
	require.True(t, ok)
	head, err := repo.Head(ctx)
	require.NoError(t, err)
	require.Equal(t, "trunk", head)
	has, err := repo.HasBranches(ctx)
	require.NoError(t, err)
	require.False(t, has)
	cfg, err := os.ReadFile(filepath.Join(repo.Path(), "config"))
	require.NoError(t, err)
	require.Contains(t, string(cfg), "bare = true")
	entries, err := os.ReadDir(filepath.Dir(repo.Path()))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary directory left beside it")

	_, err = s.Create(ctx, "default", rel, "main")
	require.ErrorIs(t, err, storage.ErrRepositoryExists)
	_, err = s.Create(ctx, "default", storage.HashedPath(8), "bad branch")
	require.ErrorIs(t, err, git.ErrInvalidRefName)
	ok, err = s.Exists("default", storage.HashedPath(8))
	require.NoError(t, err)
	require.False(t, ok)

	// Write something and read it through a cached cat-file process, then remove.
	r2, err := s.Repository("default", rel)
	require.NoError(t, err)
	tree, err := r2.EditTree(ctx, "", []git.TreeAction{{Action: git.ActionCreate, Path: "f", Content: []byte("x")}})
	require.NoError(t, err)
	_, err = r2.ReadObjectInfo(ctx, string(tree))
	require.NoError(t, err)

	require.NoError(t, s.Remove(ctx, "default", rel))
	ok, err = s.Exists("default", rel)
	require.NoError(t, err)
	require.False(t, ok)
	entries, err = os.ReadDir(filepath.Dir(repo.Path()))
	require.NoError(t, err)
	require.Empty(t, entries, "the moved-aside copy is gone too")
	require.ErrorIs(t, s.Remove(ctx, "default", rel), storage.ErrRepositoryNotFound)

	// Recreated at the same path: no stale cat-file process answers for the old one.
	_, err = s.Create(ctx, "default", rel, "main")
	require.NoError(t, err)
	_, err = r2.ReadObjectInfo(ctx, string(tree))
	require.ErrorIs(t, err, git.ErrObjectNotFound, "the old tree is gone")
}

func TestStorage_concurrentCreate(t *testing.T) {
	s, _ := newStorage(t, nil)
	rel := storage.HashedPath(99)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Create(ctx, "second", rel, "main")
		}()
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		if err == nil {
			created++
		} else {
			require.ErrorIs(t, err, storage.ErrRepositoryExists)
		}
	}
	require.Equal(t, 1, created)
}

func TestStorage_sweep(t *testing.T) {
	s, roots := newStorage(t, nil)
	keep, err := s.Create(ctx, "default", storage.HashedPath(1), "main")
	require.NoError(t, err)
	dir := filepath.Dir(keep.Path())
	deleted := filepath.Join(dir, "abc+123-x+deleted.git")
	oldCreating := filepath.Join(roots["second"], "@hashed", "aa", "bb", "h+creating+1-x.git")
	newCreating := filepath.Join(dir, "h+creating+2-y.git")
	for _, d := range []string{deleted, oldCreating, newCreating} {
		require.NoError(t, os.MkdirAll(filepath.Join(d, "objects"), 0o750))
	}
	old := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(oldCreating, old, old))

	n, err := s.SweepDeleted(ctx, time.Hour)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	for _, gone := range []string{deleted, oldCreating} {
		_, err := os.Stat(gone)
		require.True(t, errors.Is(err, os.ErrNotExist), gone)
	}
	_, err = os.Stat(newCreating)
	require.NoError(t, err, "a creation in progress is left alone")
	require.True(t, keep.Exists())
}
