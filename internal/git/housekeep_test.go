package git_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// packFiles lists the names in objects/pack with the given suffix.
func packFiles(t *testing.T, repo string, suffix string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repo, "objects", "pack"))
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), suffix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// pushedRepo is a repository as a push leaves it: its history in one pack, without
// multi-pack-index, bitmap or commit-graph, plus a few loose objects.
func pushedRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	repo := history(t)
	gittest.Git(t, repo.Path(), nil, "repack", "-d", "-q")
	repo.AddCommit(gittest.CommitSpec{Label: "after", Files: map[string]string{"after.txt": "after\n"}})
	require.Len(t, packFiles(t, repo.Path(), ".pack"), 1)
	return repo
}

// bloomTrace runs a path-limited git log in repo with git's trace2 performance output and
// returns the changed-path Bloom filter statistics it reports.
func bloomTrace(t *testing.T, repo, path string) string {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command("git", "--git-dir="+repo, "log", "--format=%H", "HEAD", "--", path)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_TRACE2_PERF=" + trace}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "| bloom ") {
			return line
		}
	}
	return ""
}

func TestHousekeep_pushedRepository(t *testing.T) {
	repo := pushedRepo(t)
	// A cat-file process is cached before housekeeping rewrites the packs.
	_, err := repo.ReadCommit(ctx, "main")
	require.NoError(t, err)

	res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.Equal(t, git.HousekeepResult{Repack: git.RepackGeometric, CommitGraph: true, ReplacedCommitGraph: true}, res)
	dir := repo.Path()
	assert.FileExists(t, filepath.Join(dir, "objects", "pack", "multi-pack-index"))
	assert.NotEmpty(t, packFiles(t, dir, ".bitmap"), "a reachability bitmap for clones")
	assert.FileExists(t, filepath.Join(dir, "objects", "info", "commit-graphs", "commit-graph-chain"))
	gittest.Git(t, dir, nil, "commit-graph", "verify")
	gittest.Git(t, dir, nil, "fsck", "--strict", "--no-dangling")
	// Bloom filters are there: git uses them for a path-limited walk (its trace counts the
	// commits the filters answered).
	assert.Regexp(t, `"filter_not_present":0,.*"definitely_not":[1-9]`, bloomTrace(t, dir, "README.md"))
	// Reads through the cached processes still work.
	c, err := repo.ReadCommit(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, repo.Commit("after"), c.ID)

	t.Run("two packs get one full repack, then nothing more is done", func(t *testing.T) {
		// The geometric repack kept the pushed pack and the new small one side by side.
		require.Len(t, packFiles(t, dir, ".pack"), 2)
		res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
		require.NoError(t, err)
		assert.Equal(t, git.HousekeepResult{Repack: git.RepackFull, CommitGraph: true, ReplacedCommitGraph: true}, res)
		assert.Len(t, packFiles(t, dir, ".pack"), 1)
		res, err = repo.Housekeep(ctx, git.HousekeepOptions{})
		require.NoError(t, err)
		assert.Equal(t, git.HousekeepResult{}, res)
	})

	t.Run("a new commit extends the commit-graph", func(t *testing.T) {
		time.Sleep(10 * time.Millisecond) // the ref's mtime must follow the commit-graph's
		repo.AddCommit(gittest.CommitSpec{Label: "later", Files: map[string]string{"later.txt": "later\n"}})
		res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
		require.NoError(t, err)
		assert.Equal(t, git.HousekeepResult{CommitGraph: true}, res)
		gittest.Git(t, dir, nil, "commit-graph", "verify")
		ids := gittest.Git(t, dir, nil, "log", "--format=%H", "main")
		assert.Contains(t, ids, string(repo.Commit("later")))
	})
}

func TestHousekeep_eager(t *testing.T) {
	repo := pushedRepo(t)
	// An unreachable commit, as a fetch for a comparison leaves: it must survive for two weeks.
	orphan := repo.AddCommit(gittest.CommitSpec{Label: "orphan", Branch: "tmp", Orphan: true, Files: map[string]string{"o.txt": "o\n"}})
	require.NoError(t, repo.UpdateRef(ctx, "refs/heads/tmp", git.ZeroOID, orphan))

	res, err := repo.Housekeep(ctx, git.HousekeepOptions{Eager: true})
	require.NoError(t, err)
	assert.Equal(t, git.HousekeepResult{Repack: git.RepackFull, Pruned: true, PackedRefs: true, CommitGraph: true, ReplacedCommitGraph: true}, res)
	dir := repo.Path()
	assert.FileExists(t, filepath.Join(dir, "anvil-full-repack"))
	assert.NotEmpty(t, packFiles(t, dir, ".mtimes"), "unreachable objects went to a cruft pack")
	ok, err := repo.HasObject(ctx, orphan)
	require.NoError(t, err)
	assert.True(t, ok, "a recent unreachable object is kept")
	assert.FileExists(t, filepath.Join(dir, "packed-refs"))
	gittest.Git(t, dir, nil, "fsck", "--strict")
	gittest.Git(t, dir, nil, "commit-graph", "verify")
}

func TestHousekeep_manyLooseRefs(t *testing.T) {
	repo := pushedRepo(t)
	for i := range 20 {
		require.NoError(t, repo.UpdateRef(ctx, fmt.Sprintf("refs/heads/b%02d", i), repo.Commit("init"), ""))
	}
	res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.True(t, res.PackedRefs)
	refs, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}})
	require.NoError(t, err)
	assert.Len(t, refs, 22)
	_, err = os.Stat(filepath.Join(repo.Path(), "refs", "heads", "b00"))
	assert.True(t, os.IsNotExist(err), "the loose ref went into packed-refs")
}

func TestHousekeep_lockAndLeftovers(t *testing.T) {
	repo := pushedRepo(t)
	dir := repo.Path()
	lock := filepath.Join(dir, "anvil-housekeeping.lock")
	require.NoError(t, os.WriteFile(lock, nil, 0o644))
	res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.Equal(t, git.HousekeepResult{Busy: true}, res, "another housekeeping holds the lock")
	assert.NoFileExists(t, filepath.Join(dir, "objects", "pack", "multi-pack-index"))

	// A crash's leftovers: an old lock, an abandoned quarantine and temporary pack.
	old := time.Now().Add(-48 * time.Hour)
	require.NoError(t, os.Chtimes(lock, old, old))
	quarantine := filepath.Join(dir, "objects", "incoming-abc")
	require.NoError(t, os.MkdirAll(quarantine, 0o755))
	require.NoError(t, os.Chtimes(quarantine, old, old))
	tmpPack := filepath.Join(dir, "objects", "pack", "tmp_pack_xyz")
	require.NoError(t, os.WriteFile(tmpPack, []byte("x"), 0o644))
	require.NoError(t, os.Chtimes(tmpPack, old, old))
	fresh := filepath.Join(dir, "objects", "incoming-new")
	require.NoError(t, os.MkdirAll(fresh, 0o755))

	res, err = repo.Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.False(t, res.Busy)
	assert.Equal(t, 2, res.CleanedTemp)
	assert.NoDirExists(t, quarantine)
	assert.NoFileExists(t, tmpPack)
	assert.DirExists(t, fresh, "a push in progress keeps its quarantine")
	assert.NoFileExists(t, lock, "the lock is released")
	assert.Equal(t, git.RepackGeometric, res.Repack)
}

func TestHousekeep_abandonedFetchRefs(t *testing.T) {
	repo := pushedRepo(t)
	dir := repo.Path()
	git1 := func(args ...string) string { return gittest.Git(t, dir, nil, args...) }
	head := strings.TrimSpace(git1("rev-parse", "HEAD"))
	// What a copy killed between receive-pack and its ref transaction leaves: an old loose
	// ref, one already packed, and one of a copy still running.
	git1("update-ref", "refs/tmp/fetch/aaaa/0", head)
	git1("pack-refs", "--all")
	git1("update-ref", "refs/tmp/fetch/bbbb/0", head)
	old := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "refs", "tmp", "fetch", "bbbb", "0"), old, old))
	git1("update-ref", "refs/tmp/fetch/cccc/0", head)

	res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, res.CleanedFetchRefs)
	left := strings.Fields(git1("for-each-ref", "--format=%(refname)", "refs/tmp/"))
	assert.Equal(t, []string{"refs/tmp/fetch/cccc/0"}, left, "a copy in progress keeps its ref")
}

func TestHousekeep_emptyAndMissing(t *testing.T) {
	c := gittest.NewClient(t)
	path := filepath.Join(t.TempDir(), "empty.git")
	require.NoError(t, c.InitBare(ctx, path, "main"))
	res, err := c.Repository(path).Housekeep(ctx, git.HousekeepOptions{})
	require.NoError(t, err)
	assert.Equal(t, git.HousekeepResult{}, res, "an empty repository needs nothing")
	_, err = c.Repository(filepath.Join(t.TempDir(), "none.git")).Housekeep(ctx, git.HousekeepOptions{})
	assert.ErrorIs(t, err, git.ErrRepositoryNotFound)
}
