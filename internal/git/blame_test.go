package git_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/git/pktline"
)

func TestRepository_blame(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "one", Files: map[string]string{"f.txt": "a\nb\nc\nd\n"}},
		{Label: "two", Files: map[string]string{"f.txt": "a\nB\nc\nd\ne\n"}},
		{Label: "moved", Delete: []string{"f.txt"}, Files: map[string]string{"dir/g.txt": "a\nB\nc\nd\ne\n"}},
		{Label: "three", Files: map[string]string{"dir/g.txt": "a\nB\nC\nd\ne\n"}},
	}})
	type row struct {
		commit    string
		start     int
		lines     []string
		origPath  string
		origStart int
	}
	labels := map[git.ObjectID]string{}
	for _, l := range []string{"one", "two", "moved", "three"} {
		labels[repo.Commit(l)] = l
	}
	rows := func(ranges []git.BlameRange) []row {
		var out []row
		for _, r := range ranges {
			require.NotNil(t, r.Commit)
			require.NotEmpty(t, r.Commit.Message, "commits are read in full")
			out = append(out, row{labels[r.Commit.ID], r.StartLine, r.Lines, r.OrigPath, r.OrigStartLine})
		}
		return out
	}
	ranges, err := repo.Blame(ctx, "main", "dir/g.txt", git.BlameOptions{})
	require.NoError(t, err)
	require.Equal(t, []row{
		{"one", 1, []string{"a"}, "f.txt", 1},
		{"two", 2, []string{"B"}, "f.txt", 2},
		{"three", 3, []string{"C"}, "dir/g.txt", 3},
		{"one", 4, []string{"d"}, "f.txt", 4},
		{"two", 5, []string{"e"}, "f.txt", 5},
	}, rows(ranges))
	require.Equal(t, gittest.Author.Name, ranges[0].Commit.Author.Name)

	ranges, err = repo.Blame(ctx, "main", "dir/g.txt", git.BlameOptions{StartLine: 3, EndLine: 4})
	require.NoError(t, err)
	require.Equal(t, []row{{"three", 3, []string{"C"}, "dir/g.txt", 3}, {"one", 4, []string{"d"}, "f.txt", 4}}, rows(ranges))

	ranges, err = repo.Blame(ctx, string(repo.Commit("one")), "f.txt", git.BlameOptions{})
	require.NoError(t, err)
	require.Equal(t, []row{{"one", 1, []string{"a", "b", "c", "d"}, "f.txt", 1}}, rows(ranges), "consecutive lines group")

	for _, tc := range []struct {
		rev, path string
		opts      git.BlameOptions
		err       error
	}{
		{"main", "f.txt", git.BlameOptions{}, git.ErrPathNotFound},
		{"main", "dir", git.BlameOptions{}, git.ErrPathNotFound},
		{"main", "", git.BlameOptions{}, git.ErrInvalidPath},
		{"nope", "dir/g.txt", git.BlameOptions{}, git.ErrReferenceNotFound},
		{"main", "dir/g.txt", git.BlameOptions{StartLine: 9}, git.ErrInvalidArgument},
		{"main", "dir/g.txt", git.BlameOptions{StartLine: 3, EndLine: 2}, git.ErrInvalidArgument},
	} {
		_, err := repo.Blame(ctx, tc.rev, tc.path, tc.opts)
		require.ErrorIs(t, err, tc.err, "%s:%s %+v", tc.rev, tc.path, tc.opts)
	}
}

func TestRepository_blameQuotedPath(t *testing.T) {
	t.Parallel()
	name := "dir/ü \"quoted\"\ttab.txt"
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "old", Files: map[string]string{name: "x\n"}},
		{Label: "new", Delete: []string{name}, Files: map[string]string{"plain.txt": "x\n"}},
	}})
	ranges, err := repo.Blame(ctx, "main", "plain.txt", git.BlameOptions{})
	require.NoError(t, err)
	require.Len(t, ranges, 1)
	require.Equal(t, repo.Commit("old"), ranges[0].Commit.ID)
	require.Equal(t, name, ranges[0].OrigPath, "git quotes the path in porcelain output")
}

func TestRepository_contributors(t *testing.T) {
	t.Parallel()
	alice := &git.Signature{Name: "Alice", Email: "alice@example.com"}
	alice2 := &git.Signature{Name: "Alice Renamed", Email: "alice@example.com"}
	ALICE := &git.Signature{Name: "Alice", Email: "ALICE@example.com"}
	bob := &git.Signature{Name: "Bob", Email: "bob@example.com"}
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "a1", Author: alice, Files: map[string]string{"a": "1\n2\n"}},
		{Label: "b1", Author: bob, Branch: "side", Parents: []string{"a1"}, Files: map[string]string{"b": "1\n"}},
		{Label: "a2", Author: alice2, Files: map[string]string{"a": "1\n2\n3\n"}},
		{Label: "merge", Author: bob, Parents: []string{"a2", "b1"}, Files: map[string]string{"b": "1\n", "m": "lots\nof\nlines\n"}},
		{Label: "A", Author: ALICE, Files: map[string]string{"a": "x\n"}},
	}})
	got, err := repo.Contributors(ctx, git.ContributorsOptions{})
	require.NoError(t, err)
	require.Equal(t, []git.Contributor{
		{Name: "Alice", Email: "ALICE@example.com", Commits: 1},
		{Name: "Alice Renamed", Email: "alice@example.com", Commits: 2},
		{Name: "Bob", Email: "bob@example.com", Commits: 1},
	}, got, "merges excluded, emails exact, name of the newest commit")

	got, err = repo.Contributors(ctx, git.ContributorsOptions{Revision: "side", WithStats: true})
	require.NoError(t, err)
	require.Equal(t, []git.Contributor{
		{Name: "Bob", Email: "bob@example.com", Commits: 1, Additions: 1},
		{Name: "Alice", Email: "alice@example.com", Commits: 1, Additions: 2},
	}, got)

	got, err = repo.Contributors(ctx, git.ContributorsOptions{WithStats: true})
	require.NoError(t, err)
	require.Equal(t, git.Contributor{Name: "Alice", Email: "ALICE@example.com", Commits: 1, Additions: 1, Deletions: 3}, got[0])
	require.Equal(t, git.Contributor{Name: "Alice Renamed", Email: "alice@example.com", Commits: 2, Additions: 3}, got[1])

	_, err = repo.Contributors(ctx, git.ContributorsOptions{Revision: "nope"})
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
	empty := gittest.NewRepo(t, gittest.Spec{})
	_, err = empty.Contributors(ctx, git.ContributorsOptions{})
	require.ErrorIs(t, err, git.ErrReferenceNotFound, "HEAD of an empty repository")
}

func TestRepository_size(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{})
	before, err := repo.Size(ctx)
	require.NoError(t, err)
	require.Positive(t, before)
	repo.AddCommit(gittest.CommitSpec{Label: "big", Files: map[string]string{"big": strings.Repeat("random-ish data ", 10000)}})
	after, err := repo.Size(ctx)
	require.NoError(t, err)
	require.Greater(t, after, before)
	_, err = repo.Client.Repository(t.TempDir() + "/missing").Size(ctx)
	require.Error(t, err)
}

func TestRepository_pack(t *testing.T) {
	t.Parallel()
	repo := history(t)
	t.Run("upload-pack advertisement", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, repo.UploadPack(ctx, git.PackOptions{Stdout: &out, AdvertiseRefs: true}))
		s := out.String()
		require.Contains(t, s, string(repo.Commit("rename"))+" HEAD\x00")
		require.Contains(t, s, string(repo.Commit("feature"))+" refs/heads/feature\n")
		require.Contains(t, s, "allow-reachable-sha1-in-want")
		require.Contains(t, s, "filter")
		require.True(t, strings.HasSuffix(s, "0000"))
	})
	t.Run("upload-pack protocol v2", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, repo.UploadPack(ctx, git.PackOptions{Stdout: &out, AdvertiseRefs: true, GitProtocol: "version=2"}))
		require.Contains(t, out.String(), "version 2\n")
		require.Contains(t, out.String(), "fetch=")
		err := repo.UploadPack(ctx, git.PackOptions{Stdout: &out, AdvertiseRefs: true, GitProtocol: "version=2\nx"})
		require.ErrorIs(t, err, git.ErrInvalidArgument)
	})
	t.Run("upload-pack fetch", func(t *testing.T) {
		want := "want " + string(repo.Commit("feature")) + "\n"
		req := string(pktline.Format(want)) + pktline.Flush + string(pktline.Format("done\n"))
		var out bytes.Buffer
		require.NoError(t, repo.UploadPack(ctx, git.PackOptions{Stdin: strings.NewReader(req), Stdout: &out}))
		require.True(t, strings.HasPrefix(out.String(), "0008NAK\n"), out.String())
		require.Contains(t, out.String(), "PACK")
	})
	t.Run("receive-pack advertisement", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, repo.ReceivePack(ctx, git.PackOptions{Stdout: &out, AdvertiseRefs: true}))
		require.Contains(t, out.String(), "report-status")
		require.Contains(t, out.String(), "push-options")
		require.Contains(t, out.String(), "refs/heads/main")
	})
	t.Run("receive-pack delete", func(t *testing.T) {
		cmd := string(repo.Commit("feature")) + " " + string(git.ZeroOID) + " refs/heads/feature\x00report-status"
		req := string(pktline.Format(cmd)) + pktline.Flush
		var out bytes.Buffer
		require.NoError(t, repo.ReceivePack(ctx, git.PackOptions{Stdin: strings.NewReader(req), Stdout: &out}))
		require.Contains(t, out.String(), "ok refs/heads/feature")
		_, err := repo.ResolveCommit(ctx, "refs/heads/feature")
		require.ErrorIs(t, err, git.ErrReferenceNotFound)
	})
}
