package git_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// The long-lived diff-tree process counts each commit as a one-off `git diff -M` against the
// first parent does: root commit (against the empty tree), binary file, mode change, merge,
// rename, and an empty commit (nothing changed).
func TestCommitStatsMatchOneOffDiff(t *testing.T) {
	h := history(t)
	empty := h.AddCommit(gittest.CommitSpec{Label: "empty"})
	repo := h.Repository
	for _, label := range []string{"init", "feature", "readme", "merge", "rename"} {
		id := h.Commit(label)
		c, err := repo.ReadCommit(ctx, string(id))
		require.NoError(t, err)
		from := ""
		if len(c.Parents) > 0 {
			from = string(c.Parents[0])
		}
		files, err := repo.DiffStats(ctx, from, string(id), git.DiffOptions{})
		require.NoError(t, err)
		var want git.CommitStats
		for _, f := range files {
			want.Files++
			want.Additions += f.Additions
			want.Deletions += f.Deletions
		}
		got, err := repo.CommitStats(ctx, id)
		require.NoError(t, err)
		require.Equal(t, want, got, label)
	}
	got, err := repo.CommitStats(ctx, empty)
	require.NoError(t, err)
	require.Equal(t, git.CommitStats{}, got)
	init, err := repo.CommitStats(ctx, h.Commit("init"))
	require.NoError(t, err)
	require.Equal(t, git.CommitStats{Files: 4, Additions: 10, Deletions: 0}, init,
		"README 3 + guide 5 + run.sh 2 lines; the binary file counts as a file without lines")
	merge, err := repo.CommitStats(ctx, h.Commit("merge"))
	require.NoError(t, err)
	require.Equal(t, git.CommitStats{Files: 1, Additions: 1}, merge, "a merge counts against its first parent only")
}

// Concurrent requests each get their own process and the right answer; a cancelled request
// does not leave a process out of step for the next one.
func TestCommitStatsConcurrentAndCancelled(t *testing.T) {
	h := history(t)
	repo := h.Repository
	want, err := repo.CommitStats(ctx, h.Commit("rename"))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got, err := repo.CommitStats(ctx, h.Commit("rename"))
				if !assertNoErr(t, err) {
					return
				}
				if got != want {
					t.Errorf("got %+v, want %+v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	c, err := repo.ReadCommit(ctx, string(h.Commit("rename")))
	require.NoError(t, err)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = repo.CommitStatsOf(cancelled, c)
	require.ErrorIs(t, err, context.Canceled)
	got, err := repo.CommitStatsOf(ctx, c)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

func assertNoErr(t *testing.T, err error) bool {
	t.Helper()
	if err != nil {
		t.Error(err)
		return false
	}
	return true
}
