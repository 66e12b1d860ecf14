package git_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// gitLogIDs runs the git CLI's log with args and returns the listed ids.
func gitLogIDs(t *testing.T, repo string, args ...string) []string {
	t.Helper()
	out := gittest.Git(t, repo, nil, append([]string{"--no-replace-objects", "log", "--format=%H"}, args...)...)
	return strings.Fields(out)
}

func commitIDs(commits []*git.Commit) []string {
	ids := []string{}
	for _, c := range commits {
		ids = append(ids, string(c.ID))
	}
	return ids
}

// walk runs Log's in-process walk and requires that it answered.
func walk(t *testing.T, repo *git.Repository, opts git.LogOptions) []string {
	t.Helper()
	commits, handled, err := repo.LogInProcess(ctx, opts)
	require.NoError(t, err)
	require.True(t, handled, "%+v went to git log", opts)
	return commitIDs(commits)
}

// notWalked requires that Log's in-process walk declines opts (so Log runs git log).
func notWalked(t *testing.T, repo *git.Repository, opts git.LogOptions) {
	t.Helper()
	_, handled, err := repo.LogInProcess(ctx, opts)
	require.NoError(t, err)
	require.False(t, handled, "%+v was walked in process", opts)
}

// logFlags are the git log flags of opts' boolean options.
func logFlags(opts git.LogOptions) []string {
	var flags []string
	if opts.FirstParent {
		flags = append(flags, "--first-parent")
	}
	if opts.NoMerges {
		flags = append(flags, "--no-merges")
	}
	return flags
}

// importHistory writes a fast-import stream into a new repository whose HEAD is main.
func importHistory(t *testing.T, client *git.Client, stream string) *git.Repository {
	t.Helper()
	path := filepath.Join(t.TempDir(), "repo.git")
	require.NoError(t, client.InitBare(ctx, path, "main"))
	gittest.Git(t, path, []byte(stream), "fast-import", "--quiet")
	return client.Repository(path)
}

// randomHistory builds a history of n empty commits from seed: mostly commits on top of one
// of the last few (mergeEvery 0: always the last one), merges of two or three earlier commits
// about once in mergeEvery, a new root now and then, and committer dates drawn so that many
// are equal and children are often older than their parents. main is the last commit; b0…b3
// point at random ones.
func randomHistory(t *testing.T, client *git.Client, seed uint64, n, mergeEvery int) *git.Repository {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	const base = 1700000000
	dates := make([]int64, n+1)
	var s strings.Builder
	for i := 1; i <= n; i++ {
		var parents []int
		switch {
		case mergeEvery == 0:
			if i > 1 {
				parents = []int{i - 1}
			}
		case i == 1 || rng.IntN(15) == 0:
		case i > 3 && rng.IntN(mergeEvery) == 0:
			picked := map[int]bool{}
			for len(parents) < 2+rng.IntN(2) {
				if p := 1 + rng.IntN(i-1); !picked[p] {
					picked[p] = true
					parents = append(parents, p)
				}
			}
		default:
			parents = []int{i - 1 - rng.IntN(min(i-1, 4))}
		}
		switch {
		case len(parents) > 0 && rng.IntN(3) == 0:
			dates[i] = dates[parents[0]] // the same second as its parent
		case len(parents) > 0 && rng.IntN(2) == 0:
			dates[i] = dates[parents[0]] + int64(rng.IntN(3))*60
		default:
			dates[i] = base + int64(rng.IntN(20))*60
		}
		if len(parents) == 0 {
			s.WriteString("reset refs/heads/main\n")
		}
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\n", i)
		fmt.Fprintf(&s, "author A <a@example.com> %d +0000\ncommitter C <c@example.com> %d +0100\n", base, dates[i])
		msg := fmt.Sprintf("commit %d\n", i)
		fmt.Fprintf(&s, "data %d\n%s", len(msg), msg)
		for k, p := range parents {
			if k == 0 {
				fmt.Fprintf(&s, "from :%d\n", p)
			} else {
				fmt.Fprintf(&s, "merge :%d\n", p)
			}
		}
		s.WriteString("\n")
	}
	for b := range 4 {
		fmt.Fprintf(&s, "reset refs/heads/b%d\nfrom :%d\n\n", b, 1+rng.IntN(n))
	}
	return importHistory(t, client, s.String())
}

// TestLogInProcess_matchesGitLog compares the walk with git log on random histories, from
// several starting points, with and without --first-parent and --no-merges, for the whole
// listing and for random pages of it.
func TestLogInProcess_matchesGitLog(t *testing.T) {
	t.Parallel()
	client := gittest.NewClient(t)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, h := range []struct {
		seed          uint64
		n, mergeEvery int
	}{{1, 70, 4}, {2, 70, 4}, {3, 70, 4}, {4, 70, 2}, {5, 200, 6}, {6, 120, 0}} {
		repo := randomHistory(t, client, h.seed, h.n, h.mergeEvery)
		revs := []string{"", "main", "b0", "b1", "b2", "b3"}
		revs = append(revs, gitLogIDs(t, repo.Path(), "-n", "1", "--skip", "7", "main")...)
		for _, rev := range revs {
			for _, variant := range []git.LogOptions{{}, {FirstParent: true}, {NoMerges: true}, {FirstParent: true, NoMerges: true}} {
				opts := variant
				args := logFlags(opts)
				if rev != "" {
					opts.Revisions = []string{rev}
					args = append(args, rev)
				}
				full := gitLogIDs(t, repo.Path(), args...)
				opts.Skip, opts.Limit = 0, git.MaxWalkedCommits
				require.Equal(t, full, walk(t, repo, opts), "history %d, %+v", h.seed, opts)
				for range 6 {
					opts.Skip, opts.Limit = rng.IntN(len(full)+2), 1+rng.IntN(40)
					want := full[min(opts.Skip, len(full)):min(opts.Skip+opts.Limit, len(full))]
					require.Equal(t, want, walk(t, repo, opts), "history %d, %+v", h.seed, opts)
				}
			}
		}
	}
}

// TestLog_inProcess checks the walk on named histories against git log run with the same
// page, and that Log gives the same.
func TestLog_inProcess(t *testing.T) {
	t.Parallel()
	client := gittest.NewClient(t)
	at := func(minute int) *git.Signature {
		return &git.Signature{Name: "C", Email: "c@example.com", When: gittest.Epoch.Add(time.Duration(minute) * time.Minute)}
	}
	linear := gittest.NewRepoWith(t, client, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "a"}, {Label: "b"}, {Label: "c"}, {Label: "d"}, {Label: "e"},
	}})
	// Two branches whose commits alternate in time, merged at the end.
	interleaved := gittest.NewRepoWith(t, client, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "root", Committer: at(0)},
		{Label: "m1", Committer: at(1)},
		{Label: "t1", Branch: "topic", Parents: []string{"root"}, Committer: at(2)},
		{Label: "m2", Committer: at(3)},
		{Label: "t2", Branch: "topic", Committer: at(4)},
		{Label: "m3", Committer: at(5)},
		{Label: "merge", Parents: []string{"m3", "t2"}, Committer: at(6)},
		{Label: "after", Committer: at(7)},
	}})
	// Every commit at the same second: git keeps them in the order it reached them.
	ties := gittest.NewRepoWith(t, client, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "root", Committer: at(0)},
		{Label: "x1", Committer: at(0)},
		{Label: "y1", Branch: "side", Parents: []string{"root"}, Committer: at(0)},
		{Label: "y2", Branch: "side", Committer: at(0)},
		{Label: "x2", Committer: at(0)},
		{Label: "merge", Parents: []string{"x2", "y2"}, Committer: at(0)},
		{Label: "octopus", Parents: []string{"merge", "y1", "x1"}, Committer: at(0)},
	}})
	for _, tc := range []struct {
		desc string
		repo *gittest.Repo
		opts git.LogOptions
		want []string // labels, in order
	}{
		{"linear", linear, git.LogOptions{Limit: 20}, []string{"e", "d", "c", "b", "a"}},
		{"skip in the middle", linear, git.LogOptions{Skip: 2, Limit: 2}, []string{"c", "b"}},
		{"limit beyond the root", linear, git.LogOptions{Skip: 3, Limit: 20}, []string{"b", "a"}},
		{"skip beyond the root", linear, git.LogOptions{Skip: 9, Limit: 20}, nil},
		{"interleaved branches", interleaved, git.LogOptions{Limit: 20},
			[]string{"after", "merge", "m3", "t2", "m2", "t1", "m1", "root"}},
		{"interleaved, first parent", interleaved, git.LogOptions{Limit: 20, FirstParent: true},
			[]string{"after", "merge", "m3", "m2", "m1", "root"}},
		{"interleaved, no merges", interleaved, git.LogOptions{Limit: 20, NoMerges: true},
			[]string{"after", "m3", "t2", "m2", "t1", "m1", "root"}},
		{"no merges counts skip after the filter", interleaved, git.LogOptions{Skip: 1, Limit: 2, NoMerges: true},
			[]string{"m3", "t2"}},
		{"a branch", interleaved, git.LogOptions{Revisions: []string{"topic"}, Limit: 20}, []string{"t2", "t1", "root"}},
		{"equal dates", ties, git.LogOptions{Limit: 20},
			[]string{"octopus", "merge", "y1", "x1", "x2", "y2", "root"}},
		{"equal dates, first parent", ties, git.LogOptions{Limit: 20, FirstParent: true},
			[]string{"octopus", "merge", "x2", "x1", "root"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			want := []string{}
			for _, l := range tc.want {
				want = append(want, string(tc.repo.Commit(l)))
			}
			require.Equal(t, want, walk(t, tc.repo.Repository, tc.opts))
			args := append(logFlags(tc.opts), "--skip", fmt.Sprint(tc.opts.Skip), "-n", fmt.Sprint(tc.opts.Limit))
			require.Equal(t, want, gitLogIDs(t, tc.repo.Path(), append(args, tc.opts.Revisions...)...))
			commits, err := tc.repo.Log(ctx, tc.opts)
			require.NoError(t, err)
			require.Equal(t, want, commitIDs(commits))
		})
	}
}

// TestLog_inProcessRevisions: the walk starts where git log does for branches, tags (annotated
// ones peeled), full and abbreviated ids, HEAD and "@".
func TestLog_inProcessRevisions(t *testing.T) {
	t.Parallel()
	repo := history(t)
	for _, rev := range []string{"main", "feature", "v1.0", "v1.1", "refs/heads/main", "HEAD", "@",
		string(repo.Commit("merge")), string(repo.Commit("merge"))[:10]} {
		want := gitLogIDs(t, repo.Path(), rev)
		require.Equal(t, want, walk(t, repo.Repository, git.LogOptions{Revisions: []string{rev}, Limit: 20}), rev)
	}
}

// TestLog_gitLogAnswers lists what the walk leaves to git log (TestRepository_log checks what
// git log answers).
func TestLog_gitLogAnswers(t *testing.T) {
	t.Parallel()
	repo := history(t)
	page := func(opts git.LogOptions) git.LogOptions {
		if opts.Limit == 0 {
			opts.Limit = 20
		}
		return opts
	}
	for _, tc := range []struct {
		desc string
		opts git.LogOptions
	}{
		{"a range", page(git.LogOptions{Revisions: []string{"feature..main"}})},
		{"a symmetric range", page(git.LogOptions{Revisions: []string{"feature...main"}})},
		{"an exclusion", page(git.LogOptions{Revisions: []string{"main", "^feature"}})},
		{"a parent", page(git.LogOptions{Revisions: []string{"main^"}})},
		{"an ancestor", page(git.LogOptions{Revisions: []string{"main~2"}})},
		{"a peel", page(git.LogOptions{Revisions: []string{"v1.0^{commit}"}})},
		{"a reflog entry", page(git.LogOptions{Revisions: []string{"main@{0}"}})},
		{"a message search", page(git.LogOptions{Revisions: []string{":/readme"}})},
		{"all refs", page(git.LogOptions{All: true})},
		{"a path", page(git.LogOptions{Paths: []string{"README.md"}})},
		{"an author", page(git.LogOptions{Author: "Alice"})},
		{"since", page(git.LogOptions{Since: gittest.Epoch})},
		{"until", page(git.LogOptions{Until: gittest.Epoch.Add(time.Hour)})},
		{"topological order", page(git.LogOptions{Order: git.OrderTopo})},
		{"stats", page(git.LogOptions{WithStats: true})},
		{"no limit", git.LogOptions{}},
		{"a deep page", git.LogOptions{Skip: git.MaxWalkedCommits, Limit: 1}},
		{"a long page", git.LogOptions{Limit: git.MaxWalkedCommits + 1}},
		{"the longest page", git.LogOptions{Skip: 5, Limit: math.MaxInt}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			notWalked(t, repo.Repository, tc.opts)
		})
	}
}

// TestLog_inProcessErrors: a revision the walk cannot resolve goes to git log, so Log fails
// exactly as before.
func TestLog_inProcessErrors(t *testing.T) {
	t.Parallel()
	repo := history(t)
	client := gittest.NewClient(t)
	empty := client.Repository(filepath.Join(t.TempDir(), "empty.git"))
	require.NoError(t, client.InitBare(ctx, empty.Path(), "main"))
	tree := gittest.Git(t, repo.Path(), nil, "rev-parse", "main^{tree}")
	for _, tc := range []struct {
		desc string
		repo *git.Repository
		rev  string
		err  error // nil: git log lists nothing
	}{
		{"unknown ref", repo.Repository, "nope", git.ErrReferenceNotFound},
		{"unknown object id", repo.Repository, strings.Repeat("ab", 20), git.ErrReferenceNotFound},
		{"a tree", repo.Repository, strings.TrimSpace(tree), nil},
		{"empty repository", empty, "main", git.ErrReferenceNotFound},
		{"empty repository, HEAD", empty, "", git.ErrReferenceNotFound},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			opts := git.LogOptions{Limit: 20}
			if tc.rev != "" {
				opts.Revisions = []string{tc.rev}
			}
			notWalked(t, tc.repo, opts)
			commits, err := tc.repo.Log(ctx, opts)
			unlimited := opts
			unlimited.Limit = 0 // never walked in process
			commitsByGit, errByGit := tc.repo.Log(ctx, unlimited)
			require.Equal(t, commitsByGit, commits)
			if tc.err == nil {
				require.NoError(t, err)
				require.NoError(t, errByGit)
				return
			}
			require.ErrorIs(t, err, tc.err)
			require.EqualError(t, err, errByGit.Error())
		})
	}
}

// TestLog_rewrittenParents: shallow and grafted repositories go to git log, whose parents are
// not the stored ones; replace refs are ignored by every git process Anvil runs, so the walk
// keeps them.
func TestLog_rewrittenParents(t *testing.T) {
	t.Parallel()
	client := gittest.NewClient(t)
	linear := func() *gittest.Repo {
		return gittest.NewRepoWith(t, client, gittest.Spec{Commits: []gittest.CommitSpec{
			{Label: "a"}, {Label: "b"}, {Label: "c"}, {Label: "d"}, {Label: "e"},
		}})
	}
	opts := git.LogOptions{Limit: 20}

	t.Run("shallow", func(t *testing.T) {
		t.Parallel()
		src := linear()
		path := filepath.Join(t.TempDir(), "shallow.git")
		gittest.Git(t, "", nil, "clone", "--quiet", "--bare", "--depth=2", "file://"+src.Path(), path)
		repo := client.Repository(path)
		notWalked(t, repo, opts)
		commits, err := repo.Log(ctx, opts)
		require.NoError(t, err)
		require.Equal(t, []string{string(src.Commit("e")), string(src.Commit("d"))}, commitIDs(commits))
	})

	t.Run("grafts", func(t *testing.T) {
		t.Parallel()
		repo := linear()
		graft := string(repo.Commit("c")) + "\n" // c without parents
		require.NoError(t, os.MkdirAll(filepath.Join(repo.Path(), "info"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(repo.Path(), "info", "grafts"), []byte(graft), 0o644))
		notWalked(t, repo.Repository, opts)
		commits, err := repo.Log(ctx, opts)
		require.NoError(t, err)
		require.Equal(t, gitLogIDs(t, repo.Path()), commitIDs(commits))
		require.Len(t, commits, 3)
	})

	t.Run("replace refs", func(t *testing.T) {
		t.Parallel()
		repo := linear()
		gittest.Git(t, repo.Path(), nil, "replace", string(repo.Commit("d")), string(repo.Commit("a")))
		commits, err := repo.Log(ctx, opts)
		require.NoError(t, err)
		require.Len(t, commits, 5)
		require.Equal(t, commitIDs(commits), walk(t, repo.Repository, opts))
		require.Equal(t, gitLogIDs(t, repo.Path()), commitIDs(commits))
	})
}

// TestLog_unusualDates: commits whose date the walk does not read go to git log.
func TestLog_unusualDates(t *testing.T) {
	t.Parallel()
	client := gittest.NewClient(t)
	repo := importHistory(t, client, ""+
		"commit refs/heads/main\nmark :1\ncommitter C <c@example.com> 1700000000 +0000\ndata 2\na\n\n"+
		"commit refs/heads/main\nmark :2\ncommitter C <c@example.com> 20000000000 +0000\ndata 2\nb\nfrom :1\n\n"+
		"commit refs/heads/main\nmark :3\ncommitter C <c@example.com> 1700000100 +0000\ndata 2\nc\nfrom :2\n\n")
	opts := git.LogOptions{Limit: 20}
	notWalked(t, repo, opts)
	commits, err := repo.Log(ctx, opts)
	require.NoError(t, err)
	require.Equal(t, gitLogIDs(t, repo.Path()), commitIDs(commits))
}

func TestCommitDate(t *testing.T) {
	t.Parallel()
	tree := "tree " + strings.Repeat("a", 40) + "\n"
	parent := "parent " + strings.Repeat("b", 40) + "\n"
	author := "author A <a@example.com> 1 +0000\n"
	for _, tc := range []struct {
		desc, data string
		date       int64
		ok         bool
	}{
		{"root", tree + author + "committer C <c@example.com> 1700000000 +0100\n\nmsg\n", 1700000000, true},
		{"merge", tree + parent + parent + author + "committer C <c@example.com> 42 -0130\n\n", 42, true},
		{"empty message", tree + author + "committer C <c@example.com> 7 +0000\n\n", 7, true},
		{"no zone", tree + author + "committer C <c@example.com> 7\n\n", 7, true},
		{"signed", tree + author + "committer C <c@example.com> 7 +0000\ngpgsig -----BEGIN\n -----END\n\nmsg", 7, true},
		{"largest", tree + author + "committer C <c@example.com> 17179869183 +0000\n\n", 1<<34 - 1, true},
		{"too large", tree + author + "committer C <c@example.com> 17179869184 +0000\n\n", 0, false},
		{"negative", tree + author + "committer C <c@example.com> -5 +0000\n\n", 0, false},
		{"no date", tree + author + "committer C <c@example.com>\n\n", 0, false},
		{"two spaces", tree + author + "committer C <c@example.com>  7 +0000\n\n", 0, false},
		{"'>' in the name", tree + author + "committer C> <c@example.com> 7 +0000\n\n", 0, false},
		{"committer line last", tree + author + "committer C <c@example.com> 7 +0000\n", 0, false},
		{"no author", tree + "committer C <c@example.com> 7 +0000\n\n", 0, false},
		{"header between", tree + author + "encoding x\ncommitter C <c@example.com> 7 +0000\n\n", 0, false},
		{"bad tree", "tree xyz\n" + author + "committer C <c@example.com> 7 +0000\n\n", 0, false},
		{"bad parent", tree + "parent xyz\n" + author + "committer C <c@example.com> 7 +0000\n\n", 0, false},
		{"empty", "", 0, false},
	} {
		date, ok := git.CommitDate([]byte(tc.data))
		require.Equal(t, tc.ok, ok, tc.desc)
		require.Equal(t, tc.date, date, tc.desc)
	}
}
