package git_test

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// lsTree renders git's own recursive or flat listing in TreeEntry form, for comparisons.
func lsTree(t *testing.T, repo *gittest.Repo, treeish string, recursive bool, prefix string) []git.TreeEntry {
	t.Helper()
	args := []string{"ls-tree", "-z", "--long"}
	if recursive {
		args = append(args, "-r", "-t")
	}
	out := gittest.Git(t, repo.Path(), nil, append(args, treeish)...)
	var entries []git.TreeEntry
	for _, rec := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		meta, name, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		size := int64(-1)
		if f[3] != "-" {
			size, _ = strconv.ParseInt(f[3], 10, 64)
		}
		p := name
		if prefix != "" {
			p = prefix + "/" + name
		}
		entries = append(entries, git.TreeEntry{ID: git.ObjectID(f[2]), Type: git.ObjectType(f[1]), Mode: f[0],
			Name: p[strings.LastIndex(p, "/")+1:], Path: p, Size: size})
	}
	return entries
}

func TestRepository_listTree(t *testing.T) {
	t.Parallel()
	repo := history(t)
	withoutSizes := func(es []git.TreeEntry) []git.TreeEntry {
		out := append([]git.TreeEntry(nil), es...)
		for i := range out {
			out[i].Size = -1
		}
		return out
	}
	for _, tc := range []struct {
		desc, path string
		opts       git.ListTreeOptions
		want       []git.TreeEntry
	}{
		{"root", "", git.ListTreeOptions{}, withoutSizes(lsTree(t, repo, "main", false, ""))},
		{"root with sizes", "/", git.ListTreeOptions{WithSizes: true}, lsTree(t, repo, "main", false, "")},
		{"subdirectory", "docs", git.ListTreeOptions{WithSizes: true}, lsTree(t, repo, "main:docs", false, "docs")},
		{"recursive", "", git.ListTreeOptions{Recursive: true}, withoutSizes(lsTree(t, repo, "main", true, ""))},
		{"recursive with sizes", "", git.ListTreeOptions{Recursive: true, WithSizes: true}, lsTree(t, repo, "main", true, "")},
		{"recursive subdirectory", "docs/", git.ListTreeOptions{Recursive: true, WithSizes: true}, lsTree(t, repo, "main:docs", true, "docs")},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := repo.ListTree(ctx, "main", tc.path, tc.opts)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	t.Run("modes and types", func(t *testing.T) {
		got, err := repo.ListTree(ctx, "main", "", git.ListTreeOptions{})
		require.NoError(t, err)
		modes := map[string]string{}
		for _, e := range got {
			modes[e.Path] = e.Mode + " " + string(e.Type)
		}
		require.Equal(t, map[string]string{
			"README.md": "100644 blob", "assets": "040000 tree", "docs": "040000 tree",
			"feature.txt": "100644 blob", "run.sh": "100755 blob",
		}, modes)
	})
	t.Run("errors", func(t *testing.T) {
		_, err := repo.ListTree(ctx, "main", "missing", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrPathNotFound)
		require.ErrorIs(t, err, git.ErrObjectNotFound)
		_, err = repo.ListTree(ctx, "main", "README.md", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrPathNotFound, "a file is not a directory")
		_, err = repo.ListTree(ctx, "main", "README.md/x", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrPathNotFound)
		_, err = repo.ListTree(ctx, "nope", "", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrReferenceNotFound)
		_, err = repo.ListTree(ctx, "main", "../x", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrInvalidPath)
		_, err = repo.ListTree(ctx, "--all", "", git.ListTreeOptions{})
		require.ErrorIs(t, err, git.ErrInvalidRevision)
	})
	t.Run("older revision and tree id", func(t *testing.T) {
		got, err := repo.ListTree(ctx, string(repo.Commit("init")), "docs", git.ListTreeOptions{})
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, "docs/guide.md", got[0].Path)
		tree := strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "main^{tree}"))
		got, err = repo.ListTree(ctx, tree, "", git.ListTreeOptions{})
		require.NoError(t, err)
		require.Len(t, got, 5)
	})
}

func TestSortTreesFirst(t *testing.T) {
	t.Parallel()
	entries := []git.TreeEntry{
		{Name: "a", Type: git.TypeBlob}, {Name: "b", Type: git.TypeTree}, {Name: "c", Type: git.TypeCommit},
		{Name: "d", Type: git.TypeTree}, {Name: "e", Type: git.TypeBlob},
	}
	git.SortTreesFirst(entries)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	require.Equal(t, []string{"b", "d", "a", "c", "e"}, names)
}

func TestRepository_treeEntryAt(t *testing.T) {
	t.Parallel()
	repo := history(t)
	e, err := repo.TreeEntryAt(ctx, "main", "run.sh")
	require.NoError(t, err)
	require.Equal(t, "100755", e.Mode)
	require.Equal(t, git.TypeBlob, e.Type)
	require.Equal(t, "run.sh", e.Name)
	require.EqualValues(t, len("#!/bin/sh\necho hi\n"), e.Size)

	e, err = repo.TreeEntryAt(ctx, "main", "docs/manual.md")
	require.NoError(t, err)
	require.Equal(t, "docs/manual.md", e.Path)
	require.Equal(t, "manual.md", e.Name)

	e, err = repo.TreeEntryAt(ctx, "main", "docs")
	require.NoError(t, err)
	require.Equal(t, git.TypeTree, e.Type)
	require.EqualValues(t, -1, e.Size)

	root, err := repo.TreeEntryAt(ctx, "main", "")
	require.NoError(t, err)
	require.Equal(t, "040000", root.Mode)
	require.Equal(t, git.ObjectID(strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "main^{tree}"))), root.ID)

	_, err = repo.TreeEntryAt(ctx, "main", "docs/guide.md")
	require.ErrorIs(t, err, git.ErrPathNotFound)
	_, err = repo.TreeEntryAt(ctx, "init-nope", "x")
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
}

func TestRepository_treePathsWithSpecialCharacters(t *testing.T) {
	t.Parallel()
	name := "we\nird\t\"name\" ü.txt"
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "c", Files: map[string]string{"dir/" + name: "x", "-dash": "y", ":(exclude)z": "z"}},
	}})
	e, err := repo.TreeEntryAt(ctx, "main", "dir/"+name)
	require.NoError(t, err)
	require.Equal(t, name, e.Name)
	for _, p := range []string{"-dash", ":(exclude)z"} {
		e, err := repo.TreeEntryAt(ctx, "main", p)
		require.NoError(t, err, p)
		require.Equal(t, p, e.Path)
	}
	got, err := repo.ListTree(ctx, "main", "", git.ListTreeOptions{Recursive: true})
	require.NoError(t, err)
	var paths []string
	for _, e := range got {
		paths = append(paths, e.Path)
	}
	require.Equal(t, []string{"-dash", ":(exclude)z", "dir", "dir/" + name}, paths)

	// Paths that look like options or pathspec magic reach archive, log and diff as names.
	for _, p := range []string{"-dash", ":(exclude)z"} {
		var buf bytes.Buffer
		require.NoError(t, repo.Archive(ctx, &buf, git.ArchiveOptions{Revision: "main", Format: git.ArchiveTar, Path: p}))
		require.Equal(t, []string{p}, keys(untar(t, &buf)))
		commits, err := repo.Log(ctx, git.LogOptions{Paths: []string{p}})
		require.NoError(t, err)
		require.Len(t, commits, 1)
		res, err := repo.Diff(ctx, "", "main", git.DiffOptions{Paths: []string{p}})
		require.NoError(t, err)
		require.Len(t, res.Files, 1)
		require.Equal(t, p, res.Files[0].NewPath)
	}
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
