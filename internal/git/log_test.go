package git_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func commitLabels(repo *gittest.Repo, commits []*git.Commit) []string {
	names := map[git.ObjectID]string{}
	for _, l := range []string{"init", "feature", "readme", "merge", "rename"} {
		names[repo.Commit(l)] = l
	}
	var out []string
	for _, c := range commits {
		out = append(out, names[c.ID])
	}
	return out
}

func TestRepository_log(t *testing.T) {
	t.Parallel()
	repo := history(t)
	minute := func(i int) time.Time { return gittest.Epoch.Add(time.Duration(i) * time.Minute) }
	for _, tc := range []struct {
		desc  string
		opts  git.LogOptions
		want  []string
		count int // CountCommits; -1 = len(want)
	}{
		{"HEAD by default", git.LogOptions{}, []string{"rename", "merge", "readme", "feature", "init"}, -1},
		{"a branch", git.LogOptions{Revisions: []string{"feature"}}, []string{"feature", "init"}, -1},
		{"two dots", git.LogOptions{Revisions: []string{"feature..main"}}, []string{"rename", "merge", "readme"}, -1},
		{"three dots", git.LogOptions{Revisions: []string{"feature...v1.1"}}, []string{"readme", "feature"}, -1},
		{"exclusion", git.LogOptions{Revisions: []string{"main", "^v1.1"}}, []string{"rename", "merge", "feature"}, -1},
		{"first parent", git.LogOptions{FirstParent: true}, []string{"rename", "merge", "readme", "init"}, -1},
		{"no merges", git.LogOptions{NoMerges: true}, []string{"rename", "readme", "feature", "init"}, -1},
		{"path", git.LogOptions{Paths: []string{"README.md"}}, []string{"readme", "init"}, -1},
		{"directory path", git.LogOptions{Paths: []string{"/docs/"}}, []string{"rename", "init"}, -1},
		{"two paths", git.LogOptions{Paths: []string{"feature.txt", "docs/manual.md"}}, []string{"rename", "feature"}, -1},
		{"author name", git.LogOptions{Author: "Alice"}, []string{"readme"}, -1},
		{"author email", git.LogOptions{Author: "jane@example"}, []string{"rename", "merge", "feature", "init"}, -1},
		{"since, inclusive", git.LogOptions{Since: minute(2)}, []string{"rename", "merge", "readme"}, -1},
		{"until, inclusive", git.LogOptions{Until: minute(1)}, []string{"feature", "init"}, -1},
		{"since and until in another zone", git.LogOptions{Since: minute(1).UTC(), Until: minute(3).In(time.FixedZone("", -5*3600))},
			[]string{"merge", "readme", "feature"}, -1},
		{"skip and limit", git.LogOptions{Skip: 1, Limit: 2}, []string{"merge", "readme"}, 5},
		{"limit beyond the end", git.LogOptions{Skip: 4, Limit: 10}, []string{"init"}, 5},
		{"topological order", git.LogOptions{Order: git.OrderTopo}, []string{"rename", "merge", "feature", "readme", "init"}, -1},
		{"all refs", git.LogOptions{All: true, Revisions: nil}, []string{"rename", "merge", "readme", "feature", "init"}, -1},
		{"all plus a range", git.LogOptions{All: true, Revisions: []string{"^feature"}}, []string{"rename", "merge", "readme"}, -1},
		{"nothing matches", git.LogOptions{Author: "nobody"}, nil, -1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := repo.Log(ctx, tc.opts)
			require.NoError(t, err)
			require.Equal(t, tc.want, commitLabels(repo, got))
			n, err := repo.CountCommits(ctx, tc.opts)
			require.NoError(t, err)
			want := tc.count
			if want < 0 {
				want = len(tc.want)
			}
			require.Equal(t, want, n)
		})
	}
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			opts git.LogOptions
			err  error
		}{
			{git.LogOptions{Revisions: []string{"nope"}}, git.ErrReferenceNotFound},
			{git.LogOptions{Revisions: []string{"main..nope"}}, git.ErrReferenceNotFound},
			{git.LogOptions{Revisions: []string{"--all"}}, git.ErrInvalidRevision},
			{git.LogOptions{Paths: []string{"../etc"}}, git.ErrInvalidPath},
			{git.LogOptions{Order: "date"}, git.ErrInvalidArgument},
			{git.LogOptions{Skip: -1}, git.ErrInvalidArgument},
			{git.LogOptions{Author: "a\nb"}, git.ErrInvalidArgument},
		} {
			_, err := repo.Log(ctx, tc.opts)
			require.ErrorIs(t, err, tc.err, "%+v", tc.opts)
		}
		_, err := repo.CountCommits(ctx, git.LogOptions{Revisions: []string{"nope"}})
		require.ErrorIs(t, err, git.ErrReferenceNotFound)
	})
}

func TestRepository_logStats(t *testing.T) {
	t.Parallel()
	repo := history(t)
	commits, err := repo.Log(ctx, git.LogOptions{WithStats: true})
	require.NoError(t, err)
	got := map[string]git.CommitStats{}
	for i, l := range commitLabels(repo, commits) {
		require.NotNil(t, commits[i].Stats)
		got[l] = *commits[i].Stats
	}
	require.Equal(t, map[string]git.CommitStats{
		"init":    {Additions: 10, Deletions: 0, Files: 4}, // binary files count no lines
		"feature": {Additions: 1, Deletions: 0, Files: 1},
		"readme":  {Additions: 1, Deletions: 1, Files: 1},
		"merge":   {Additions: 1, Deletions: 0, Files: 1}, // against the first parent
		"rename":  {Additions: 0, Deletions: 0, Files: 1}, // a pure rename
	}, got)
	require.Equal(t, 2, got["readme"].Total())

	for _, l := range []string{"init", "feature", "readme", "merge", "rename"} {
		s, err := repo.CommitStats(ctx, repo.Commit(l))
		require.NoError(t, err)
		require.Equal(t, got[l], s, l)
	}
	plain, err := repo.Log(ctx, git.LogOptions{Limit: 1})
	require.NoError(t, err)
	require.Nil(t, plain[0].Stats)
}

func TestRepository_lastCommitForPath(t *testing.T) {
	t.Parallel()
	repo := history(t)
	for _, tc := range []struct{ rev, path, want string }{
		{"main", "README.md", "readme"},
		{"main", "docs/manual.md", "rename"},
		{"main", "feature.txt", "feature"}, // history simplification: the merge took it unchanged
		{"feature", "feature.txt", "feature"},
		{"v1.0", "README.md", "init"},
		{"main", "", "rename"},
	} {
		c, err := repo.LastCommitForPath(ctx, tc.rev, tc.path)
		require.NoError(t, err)
		require.Equal(t, repo.Commit(tc.want), c.ID, "%s:%s", tc.rev, tc.path)
	}
	_, err := repo.LastCommitForPath(ctx, "main", "never")
	require.ErrorIs(t, err, git.ErrPathNotFound)
}
