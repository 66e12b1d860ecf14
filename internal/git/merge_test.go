package git_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestRepository_mergeBase(t *testing.T) {
	t.Parallel()
	repo := history(t)
	repo.AddCommit(gittest.CommitSpec{Label: "orphan", Branch: "orphan", Orphan: true, Files: map[string]string{"o": "o"}})
	repo.AddCommit(gittest.CommitSpec{Label: "side", Branch: "side", Parents: []string{"readme"}, Files: map[string]string{"s": "s"}})

	for _, tc := range []struct {
		revs []string
		want string
		err  error
	}{
		{[]string{"main", "feature"}, "feature", nil},
		{[]string{"feature", "v1.1"}, "init", nil},
		{[]string{"side", "feature"}, "init", nil},
		{[]string{"side", "main"}, "readme", nil},
		{[]string{"side", "feature", "main"}, "readme", nil}, // side against (feature merged with main)
		{[]string{"main", "orphan"}, "", git.ErrUnrelatedHistories},
		{[]string{"main", "nope"}, "", git.ErrReferenceNotFound},
		{[]string{"main"}, "", git.ErrInvalidArgument},
		{[]string{"main", "-x"}, "", git.ErrInvalidRevision},
	} {
		t.Run(strings.Join(tc.revs, ","), func(t *testing.T) {
			got, err := repo.MergeBase(ctx, tc.revs...)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, repo.Commit(tc.want), got)
		})
	}
	bases, err := repo.MergeBases(ctx, "side", "feature")
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{repo.Commit("init")}, bases)

	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"feature", "main", true},
		{"main", "feature", false},
		{"main", "main", true},
		{string(repo.Commit("init")), "orphan", false},
	} {
		got, err := repo.IsAncestor(ctx, tc.a, tc.b)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%s ancestor of %s", tc.a, tc.b)
	}
	_, err = repo.IsAncestor(ctx, "nope", "main")
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
}

// conflictRepo has two branches editing the same line of a.txt from base.
func conflictRepo(t *testing.T) *gittest.Repo {
	return gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "base", Files: map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "b\n"}},
		{Label: "ours", Files: map[string]string{"a.txt": "1\nours\n3\n"}},
		{Label: "theirs", Branch: "theirs", Parents: []string{"base"}, Files: map[string]string{"a.txt": "1\ntheirs\n3\n"}},
		{Label: "clean", Branch: "clean", Parents: []string{"base"}, Files: map[string]string{"b.txt": "b2\n", "c.txt": "c\n"}},
		{Label: "orphan", Branch: "orphan", Orphan: true, Files: map[string]string{"z.txt": "z\n"}},
	}})
}

func TestRepository_mergeTree(t *testing.T) {
	t.Parallel()
	repo := conflictRepo(t)
	tree, err := repo.MergeTree(ctx, "main", "clean", git.MergeTreeOptions{})
	require.NoError(t, err)
	entries, err := repo.ListTree(ctx, string(tree), "", git.ListTreeOptions{})
	require.NoError(t, err)
	contents := map[string]string{}
	for _, e := range entries {
		b, err := repo.ReadBlob(ctx, string(e.ID), -1)
		require.NoError(t, err)
		contents[e.Path] = string(b.Data)
	}
	require.Equal(t, map[string]string{"a.txt": "1\nours\n3\n", "b.txt": "b2\n", "c.txt": "c\n"}, contents)

	_, err = repo.MergeTree(ctx, "main", "theirs", git.MergeTreeOptions{})
	var conflict *git.ConflictError
	require.ErrorAs(t, err, &conflict)
	require.ErrorIs(t, err, git.ErrConflict)
	require.Equal(t, []string{"a.txt"}, conflict.Paths)
	require.Contains(t, err.Error(), "a.txt")

	_, err = repo.MergeTree(ctx, "main", "orphan", git.MergeTreeOptions{})
	require.ErrorIs(t, err, git.ErrUnrelatedHistories)
	tree, err = repo.MergeTree(ctx, "main", "orphan", git.MergeTreeOptions{AllowUnrelatedHistories: true})
	require.NoError(t, err)
	entries, err = repo.ListTree(ctx, string(tree), "", git.ListTreeOptions{})
	require.NoError(t, err)
	require.Len(t, entries, 3)

	_, err = repo.MergeTree(ctx, "main", "nope", git.MergeTreeOptions{})
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
}

// files reads a tree into path → content.
func files(t *testing.T, repo *gittest.Repo, tree git.ObjectID) map[string]string {
	t.Helper()
	entries, err := repo.ListTree(ctx, string(tree), "", git.ListTreeOptions{Recursive: true})
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range entries {
		if e.Type != git.TypeBlob {
			continue
		}
		b, err := repo.ReadBlob(ctx, string(e.ID), -1)
		require.NoError(t, err)
		out[e.Path] = string(b.Data)
	}
	return out
}

func TestRepository_cherryPickAndRevert(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "root", Files: map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n", "b.txt": "b\n"}},
		{Label: "edit-a", Files: map[string]string{"a.txt": "1\n2\n3\nFOUR\n5\n6\n7\n8\n"}},
		{Label: "add-c", Files: map[string]string{"c.txt": "c\n"}},
		{Label: "edit-a-again", Files: map[string]string{"a.txt": "1\n2\n3\nFOUR\n5\n6\n7\nEIGHT\n"}},
		// Another branch from root, touching a.txt's first line and b.txt.
		{Label: "target", Branch: "target", Parents: []string{"root"}, Files: map[string]string{"a.txt": "ONE\n2\n3\n4\n5\n6\n7\n8\n", "b.txt": "B\n"}},
		{Label: "conflicting", Branch: "conflicting", Parents: []string{"root"}, Files: map[string]string{"a.txt": "1\n2\n3\nvier\n5\n6\n7\n8\n"}},
		// A merge on a third branch: side adds d.txt, merged into a copy of edit-a.
		{Label: "side", Branch: "side", Parents: []string{"root"}, Files: map[string]string{"d.txt": "d\n"}},
		{Label: "merged", Branch: "merged", Parents: []string{"edit-a", "side"}, Files: map[string]string{"d.txt": "d\n"}},
	}})
	for _, tc := range []struct {
		desc   string
		revert bool
		opts   git.ChangeOptions
		want   map[string]string
		err    error
	}{
		{desc: "cherry-pick a change onto another branch", opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("target")},
			want: map[string]string{"a.txt": "ONE\n2\n3\nFOUR\n5\n6\n7\n8\n", "b.txt": "B\n"}},
		{desc: "cherry-pick an added file", opts: git.ChangeOptions{Commit: repo.Commit("add-c"), Onto: repo.Commit("target")},
			want: map[string]string{"a.txt": "ONE\n2\n3\n4\n5\n6\n7\n8\n", "b.txt": "B\n", "c.txt": "c\n"}},
		{desc: "cherry-pick only the commit's own change", opts: git.ChangeOptions{Commit: repo.Commit("edit-a-again"), Onto: repo.Commit("target")},
			want: map[string]string{"a.txt": "ONE\n2\n3\n4\n5\n6\n7\nEIGHT\n", "b.txt": "B\n"}},
		{desc: "cherry-pick a root commit", opts: git.ChangeOptions{Commit: repo.Commit("root"), Onto: repo.Commit("side")},
			err: git.ErrEmptyChange},
		{desc: "cherry-pick conflict", opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("conflicting")},
			err: git.ErrConflict},
		{desc: "cherry-pick already applied", opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("add-c")},
			err: git.ErrEmptyChange},
		{desc: "cherry-pick a merge against its first parent", opts: git.ChangeOptions{Commit: repo.Commit("merged"), Onto: repo.Commit("target")},
			want: map[string]string{"a.txt": "ONE\n2\n3\n4\n5\n6\n7\n8\n", "b.txt": "B\n", "d.txt": "d\n"}},
		{desc: "cherry-pick a merge against its second parent", opts: git.ChangeOptions{Commit: repo.Commit("merged"), Onto: repo.Commit("target"), Mainline: 2},
			want: map[string]string{"a.txt": "ONE\n2\n3\nFOUR\n5\n6\n7\n8\n", "b.txt": "B\n"}},
		{desc: "mainline of a non-merge", opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("target"), Mainline: 1},
			err: git.ErrInvalidArgument},
		{desc: "mainline out of range", opts: git.ChangeOptions{Commit: repo.Commit("merged"), Onto: repo.Commit("target"), Mainline: 3},
			err: git.ErrInvalidArgument},
		{desc: "revert an older change", revert: true, opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("edit-a-again")},
			want: map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n7\nEIGHT\n", "b.txt": "b\n", "c.txt": "c\n"}},
		{desc: "revert an added file", revert: true, opts: git.ChangeOptions{Commit: repo.Commit("add-c"), Onto: repo.Commit("edit-a-again")},
			want: map[string]string{"a.txt": "1\n2\n3\nFOUR\n5\n6\n7\nEIGHT\n", "b.txt": "b\n"}},
		{desc: "revert the root commit", revert: true, opts: git.ChangeOptions{Commit: repo.Commit("root"), Onto: repo.Commit("root")},
			want: map[string]string{}},
		{desc: "revert a change not present", revert: true, opts: git.ChangeOptions{Commit: repo.Commit("add-c"), Onto: repo.Commit("target")},
			err: git.ErrEmptyChange},
		{desc: "revert conflict", revert: true, opts: git.ChangeOptions{Commit: repo.Commit("edit-a"), Onto: repo.Commit("conflicting")},
			err: git.ErrConflict},
		{desc: "unknown commit", opts: git.ChangeOptions{Commit: "0123456789012345678901234567890123456789", Onto: repo.Commit("target")},
			err: git.ErrObjectNotFound},
		{desc: "not an id", opts: git.ChangeOptions{Commit: "main", Onto: repo.Commit("target")},
			err: git.ErrInvalidObjectID},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var tree git.ObjectID
			var err error
			if tc.revert {
				tree, err = repo.RevertTree(ctx, tc.opts)
			} else {
				tree, err = repo.CherryPickTree(ctx, tc.opts)
			}
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				if tc.err == git.ErrConflict {
					var c *git.ConflictError
					require.ErrorAs(t, err, &c)
					require.Equal(t, []string{"a.txt"}, c.Paths)
				}
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, files(t, repo, tree))
		})
	}
}
