package gittest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func spec() gittest.Spec {
	return gittest.Spec{
		Commits: []gittest.CommitSpec{
			{Label: "init", Files: map[string]string{"README.md": "hello\n", "src/a.go": "package a\n"}},
			{Label: "feature", Branch: "feature", Files: map[string]string{"src/b.go": "package a\n"}, Parents: []string{"init"}},
			{Label: "fix", Files: map[string]string{"README.md": "hello, world\n"}, Delete: []string{"src/a.go"}},
			{Label: "merge", Parents: []string{"fix", "feature"}, Message: "Merge feature\n"},
			{Label: "orphan", Branch: "pages", Orphan: true, Files: map[string]string{"index.html": "<html>\n"}},
		},
		Branches: map[string]string{"old": "init"},
		Tags:     []gittest.TagSpec{{Name: "v1", Target: "init", Message: "first"}, {Name: "light", Target: "fix"}},
	}
}

func TestNewRepo_stableIDs(t *testing.T) {
	a := gittest.NewRepo(t, spec())
	b := gittest.NewRepo(t, spec())
	for _, l := range []string{"init", "feature", "fix", "merge", "orphan"} {
		require.Equal(t, a.Commit(l), b.Commit(l), l)
	}
	// Pinned identities and dates make the ids fixed across runs and machines (this one was
	// checked against plain git: mktree + commit-tree with the same identities and date).
	require.Equal(t, git.ObjectID("d541a53507147c09c693eb64fe33330de71fffcd"), a.Commit("init"))
	tagA := strings.TrimSpace(gittest.Git(t, a.Path(), nil, "rev-parse", "v1"))
	tagB := strings.TrimSpace(gittest.Git(t, b.Path(), nil, "rev-parse", "v1"))
	require.Equal(t, tagA, tagB)
}

func TestNewRepo_shape(t *testing.T) {
	ctx := context.Background()
	r := gittest.NewRepo(t, spec())
	refs, err := r.ListRefs(ctx, git.ListRefsOptions{})
	require.NoError(t, err)
	got := map[string]git.ObjectID{}
	for _, ref := range refs {
		got[ref.Name] = ref.Target
		if ref.Peeled != "" {
			got[ref.Name] = ref.Peeled
		}
	}
	require.Equal(t, map[string]git.ObjectID{
		"refs/heads/main": r.Commit("merge"), "refs/heads/feature": r.Commit("feature"),
		"refs/heads/pages": r.Commit("orphan"), "refs/heads/old": r.Commit("init"),
		"refs/tags/v1": r.Commit("init"), "refs/tags/light": r.Commit("fix"),
	}, got)

	merge, err := r.ReadCommit(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{r.Commit("fix"), r.Commit("feature")}, merge.Parents)
	require.Equal(t, "Merge feature\n", merge.Message)
	require.True(t, merge.Author.When.Equal(gittest.Epoch.Add(3*60e9)))
	entries, err := r.ListTree(ctx, "main", "", git.ListTreeOptions{Recursive: true})
	require.NoError(t, err)
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	require.Equal(t, []string{"README.md"}, paths, "a merge takes its first parent's tree plus its own files")

	fix, err := r.ReadCommit(ctx, string(r.Commit("fix")))
	require.NoError(t, err)
	require.Equal(t, "fix\n", fix.Message, "the label is the default message")
	orphan, err := r.ReadCommit(ctx, "pages")
	require.NoError(t, err)
	require.Empty(t, orphan.Parents)

	id := r.AddCommit(gittest.CommitSpec{Label: "later", Files: map[string]string{"new": "x"}})
	require.Equal(t, id, r.Commit("later"))
	tip, err := r.ResolveCommit(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, id, tip)
	gittest.Git(t, r.Path(), nil, "fsck", "--strict")
}

func TestGitErr(t *testing.T) {
	_, err := gittest.GitErr(t.TempDir(), nil, "rev-parse", "HEAD")
	require.Error(t, err)
	require.Contains(t, err.Error(), "not a git repository")
}
