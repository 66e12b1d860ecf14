package git_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// diffRepo has one commit "after" changing "before" in every way a diff can show.
func diffRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	long := strings.Repeat("line\n", 50)
	return gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "before", Files: map[string]string{
			"modified.txt": "a\nb\nc\n",
			"deleted.txt":  "gone\n",
			"renamed.txt":  long,
			"bin.dat":      "\x00\x01old",
			"mode.sh":      "echo\n",
			"type.txt":     "was a file\n",
			"big.txt":      strings.Repeat("x\n", 100),
			"dir/sub.txt":  "sub\n",
		}},
		{Label: "after", Files: map[string]string{
			"modified.txt": "a\nB\nc\nd",
			"added.txt":    "new\nfile\n",
			"bin.dat":      "\x00\x02new",
			"big.txt":      strings.Repeat("y\n", 100),
			"dir/sub.txt":  "sub2\n",
		}, Delete: []string{"deleted.txt", "type.txt"}, Actions: []git.TreeAction{
			{Action: git.ActionMove, PreviousPath: "renamed.txt", Path: "moved/renamed.txt"},
			{Action: git.ActionChmod, Path: "mode.sh", Executable: true},
		}},
	}})
}

func TestRepository_diff(t *testing.T) {
	t.Parallel()
	repo := diffRepo(t)
	before, after := string(repo.Commit("before")), string(repo.Commit("after"))
	res, err := repo.Diff(ctx, before, after, git.DiffOptions{})
	require.NoError(t, err)
	require.False(t, res.Overflow)
	byPath := map[string]git.DiffFile{}
	var order []string
	for _, f := range res.Files {
		byPath[f.NewPath] = f
		order = append(order, f.NewPath)
	}
	require.Equal(t, []string{"added.txt", "big.txt", "bin.dat", "deleted.txt", "dir/sub.txt", "mode.sh",
		"modified.txt", "moved/renamed.txt", "type.txt"}, order)

	added := byPath["added.txt"]
	require.Equal(t, byte('A'), added.Status)
	require.True(t, added.NewFile())
	require.Equal(t, "000000", added.OldMode)
	require.Equal(t, "100644", added.NewMode)
	require.Equal(t, git.ZeroOID, added.OldID)
	require.Equal(t, "@@ -0,0 +1,2 @@\n+new\n+file\n", added.Patch)
	require.Equal(t, 2, added.Additions)

	mod := byPath["modified.txt"]
	require.Equal(t, byte('M'), mod.Status)
	require.Equal(t, "@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n\\ No newline at end of file\n", mod.Patch)
	require.Equal(t, 2, mod.Additions)
	require.Equal(t, 1, mod.Deletions)

	del := byPath["deleted.txt"]
	require.True(t, del.DeletedFile())
	require.Equal(t, "000000", del.NewMode)
	require.Equal(t, "@@ -1 +0,0 @@\n-gone\n", del.Patch)

	ren := byPath["moved/renamed.txt"]
	require.True(t, ren.RenamedFile())
	require.Equal(t, "renamed.txt", ren.OldPath)
	require.Equal(t, 100, ren.Similarity)
	require.Empty(t, ren.Patch)

	bin := byPath["bin.dat"]
	require.True(t, bin.Binary)
	require.Equal(t, "Binary files a/bin.dat and b/bin.dat differ\n", bin.Patch)
	require.Zero(t, bin.Additions)

	mode := byPath["mode.sh"]
	require.Equal(t, "100644", mode.OldMode)
	require.Equal(t, "100755", mode.NewMode)
	require.Empty(t, mode.Patch)

	require.Equal(t, byte('D'), byPath["type.txt"].Status)
	require.Equal(t, 100, byPath["big.txt"].Additions)

	t.Run("no rename detection", func(t *testing.T) {
		res, err := repo.Diff(ctx, before, after, git.DiffOptions{NoRenames: true})
		require.NoError(t, err)
		var statuses []string
		for _, f := range res.Files {
			if strings.Contains(f.NewPath, "renamed") {
				statuses = append(statuses, string(f.Status)+" "+f.NewPath)
			}
		}
		require.Equal(t, []string{"A moved/renamed.txt", "D renamed.txt"}, statuses)
	})
	t.Run("paths", func(t *testing.T) {
		res, err := repo.Diff(ctx, before, after, git.DiffOptions{Paths: []string{"dir", "added.txt"}})
		require.NoError(t, err)
		require.Len(t, res.Files, 2)
		require.Equal(t, "added.txt", res.Files[0].NewPath)
		require.Equal(t, "dir/sub.txt", res.Files[1].NewPath)
	})
	t.Run("from the empty tree", func(t *testing.T) {
		res, err := repo.Diff(ctx, "", before, git.DiffOptions{})
		require.NoError(t, err)
		require.Len(t, res.Files, 8)
		for _, f := range res.Files {
			require.True(t, f.NewFile(), f.NewPath)
		}
	})
	t.Run("identical sides", func(t *testing.T) {
		res, err := repo.Diff(ctx, after, after, git.DiffOptions{})
		require.NoError(t, err)
		require.Empty(t, res.Files)
		require.False(t, res.Overflow)
	})
	t.Run("errors", func(t *testing.T) {
		_, err := repo.Diff(ctx, before, "nope", git.DiffOptions{})
		require.ErrorIs(t, err, git.ErrReferenceNotFound)
		_, err = repo.Diff(ctx, "-p", after, git.DiffOptions{})
		require.ErrorIs(t, err, git.ErrInvalidRevision)
		_, err = repo.Diff(ctx, before, after, git.DiffOptions{Paths: []string{"../x"}})
		require.ErrorIs(t, err, git.ErrInvalidPath)
	})
}

func TestRepository_diffLimits(t *testing.T) {
	t.Parallel()
	repo := diffRepo(t)
	before, after := string(repo.Commit("before")), string(repo.Commit("after"))
	paths := func(res *git.DiffResult) []string {
		var out []string
		for _, f := range res.Files {
			out = append(out, f.NewPath)
		}
		return out
	}
	for _, tc := range []struct {
		desc     string
		opts     git.DiffOptions
		want     []string
		overflow bool
		tooLarge []string
	}{
		{"max files", git.DiffOptions{MaxFiles: 2}, []string{"added.txt", "big.txt"}, true, nil},
		{"max files not reached", git.DiffOptions{MaxFiles: 9}, []string{"added.txt", "big.txt", "bin.dat", "deleted.txt",
			"dir/sub.txt", "mode.sh", "modified.txt", "moved/renamed.txt", "type.txt"}, false, nil},
		// big.txt alone has 201 patch lines (header + 200).
		{"max lines", git.DiffOptions{MaxLines: 100}, []string{"added.txt"}, true, nil},
		{"max bytes", git.DiffOptions{MaxBytes: 30}, []string{"added.txt"}, true, nil},
		{"max patch bytes", git.DiffOptions{MaxPatchBytes: 100}, []string{"added.txt", "big.txt", "bin.dat", "deleted.txt",
			"dir/sub.txt", "mode.sh", "modified.txt", "moved/renamed.txt", "type.txt"}, false, []string{"big.txt"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			res, err := repo.Diff(ctx, before, after, tc.opts)
			require.NoError(t, err)
			require.Equal(t, tc.want, paths(res))
			require.Equal(t, tc.overflow, res.Overflow)
			var tooLarge []string
			for _, f := range res.Files {
				if f.TooLarge {
					tooLarge = append(tooLarge, f.NewPath)
					require.Empty(t, f.Patch)
					require.Equal(t, 100, f.Additions, "counts are kept")
				}
			}
			require.Equal(t, tc.tooLarge, tooLarge)
		})
	}
}

func TestRepository_diffTypechange(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "file", Files: map[string]string{"x": "content\n", "y": "y\n"}},
	}})
	// Replace x by a symlink with git itself (EditTree writes regular files only).
	link := strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("y"), "hash-object", "-w", "--stdin"))
	y := strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "main:y"))
	tree := strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("120000 blob "+link+"\tx\n100644 blob "+y+"\ty\n"), "mktree"))
	res, err := repo.Diff(ctx, "main", tree, git.DiffOptions{})
	require.NoError(t, err)
	require.Len(t, res.Files, 1)
	f := res.Files[0]
	require.Equal(t, byte('T'), f.Status)
	require.Equal(t, "100644", f.OldMode)
	require.Equal(t, "120000", f.NewMode)
	require.Equal(t, "@@ -1 +0,0 @@\n-content\n@@ -0,0 +1 @@\n+y\n\\ No newline at end of file\n", f.Patch)
}

func TestRepository_diffStats(t *testing.T) {
	t.Parallel()
	repo := diffRepo(t)
	before, after := string(repo.Commit("before")), string(repo.Commit("after"))
	stats, err := repo.DiffStats(ctx, before, after, git.DiffOptions{})
	require.NoError(t, err)
	got := map[string]git.FileStat{}
	for _, s := range stats {
		got[s.Path] = s
	}
	require.Len(t, got, 9)
	require.Equal(t, git.FileStat{OldPath: "renamed.txt", Path: "moved/renamed.txt"}, got["moved/renamed.txt"])
	require.Equal(t, git.FileStat{OldPath: "modified.txt", Path: "modified.txt", Additions: 2, Deletions: 1}, got["modified.txt"])
	require.Equal(t, git.FileStat{OldPath: "bin.dat", Path: "bin.dat", Binary: true}, got["bin.dat"])
	require.Equal(t, git.FileStat{OldPath: "big.txt", Path: "big.txt", Additions: 100, Deletions: 100}, got["big.txt"])

	stats, err = repo.DiffStats(ctx, after, after, git.DiffOptions{})
	require.NoError(t, err)
	require.Empty(t, stats)
	_, err = repo.DiffStats(ctx, "nope", after, git.DiffOptions{})
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
}
