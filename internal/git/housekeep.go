package git

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"anvil/internal/git/gitcmd"
)

// Housekeeping follows the heuristics of Gitaly's OptimizeRepository, which GitLab runs after
// pushes: work is done only where the repository's state calls for it, and less often the
// larger the repository is.
const (
	// staleObjectsGracePeriod is how long an unreachable object is kept: a fork's commit
	// fetched for a comparison, or a push still being checked, must not vanish under a reader.
	staleObjectsGracePeriod = 14 * 24 * time.Hour
	// fullRepackCooldown is the least time between two full repacks.
	fullRepackCooldown = 5 * 24 * time.Hour
	// looseObjectLimit is how many loose objects (or stale ones, for pruning) are tolerated.
	looseObjectLimit = 1024
	// fullRepackMarker is touched after each full repack.
	fullRepackMarker = "anvil-full-repack"
	// housekeepingLock keeps two housekeepings of one repository apart.
	housekeepingLock = "anvil-housekeeping.lock"
	// staleLockAge is when a housekeeping lock (or temporary file) is taken for a leftover of
	// a crash.
	staleLockAge = time.Hour
	// staleTempAge is when an abandoned quarantine directory or temporary pack is removed.
	staleTempAge = 24 * time.Hour
)

// RepackKind is how Housekeep repacked objects.
type RepackKind string

// The repacks of Housekeep.
const (
	// RepackNone: the objects were left as they were.
	RepackNone RepackKind = ""
	// RepackIncremental packs the loose objects into a new packfile.
	RepackIncremental RepackKind = "incremental"
	// RepackGeometric merges packfiles until their sizes form a geometric progression and
	// writes a multi-pack-index with a reachability bitmap.
	RepackGeometric RepackKind = "geometric"
	// RepackFull rewrites every reachable object into one packfile with a bitmap, and the
	// unreachable ones into a cruft pack, from which those older than two weeks are dropped.
	RepackFull RepackKind = "full"
)

// HousekeepOptions adjust Housekeep.
type HousekeepOptions struct {
	// Eager does everything whatever the repository's state: a full repack, pruning, packing
	// refs, and a new commit-graph.
	Eager bool
}

// HousekeepResult says what Housekeep did.
type HousekeepResult struct {
	// Busy: another housekeeping of the repository was running; nothing was done.
	Busy bool
	// Repack is how objects were repacked.
	Repack RepackKind
	// Pruned: unreachable loose objects older than two weeks were removed.
	Pruned bool
	// PackedRefs: loose refs were packed into packed-refs.
	PackedRefs bool
	// CommitGraph: the commit-graph (with changed-path Bloom filters) was written; Replaced:
	// as a new chain rather than an increment.
	CommitGraph, ReplacedCommitGraph bool
	// CleanedTemp counts abandoned temporary files and quarantine directories removed.
	CleanedTemp int
	// CleanedFetchRefs counts temporary refs of object copies (FetchFrom) that a crash left.
	CleanedFetchRefs int
}

// Housekeep optimizes the repository for reads as Gitaly's OptimizeRepository does, deciding
// from its state on disk:
//   - objects: a full repack (cruft pack for unreachable objects, expired after two weeks) when
//     there is more than one packfile and the last full repack is over five days old; a
//     geometric repack writing the multi-pack-index and its bitmap when there is no
//     multi-pack-index or too many packfiles it does not cover (more the larger the
//     repository); an incremental repack of loose objects when there are over 1024;
//   - pruning of unreachable loose objects older than two weeks when there are over 1024;
//   - packing loose refs when there are more than the packed refs' size allows;
//   - the commit-graph with changed-path Bloom filters and generation data (what makes
//     history walks filtered by path and deep pages fast): a new chain when there is none, it
//     lacks Bloom filters, or objects may have been dropped; an increment when objects were
//     repacked or refs moved since it was written.
//
// It also removes what crashed writers leave (quarantine directories, temporary packs, stale
// locks). Concurrent readers and pushes are safe; a second Housekeep of the same repository
// while one runs returns Busy. Afterwards the cached cat-file processes are replaced, so reads
// see the new packs.
func (r *Repository) Housekeep(ctx context.Context, opts HousekeepOptions) (HousekeepResult, error) {
	var res HousekeepResult
	if !r.Exists() {
		return res, fmt.Errorf("housekeeping: %w: %s", ErrRepositoryNotFound, r.path)
	}
	unlock, ok, err := lockHousekeeping(r.path)
	if err != nil {
		return res, fmt.Errorf("housekeeping: %w", err)
	}
	if !ok {
		res.Busy = true
		return res, nil
	}
	defer unlock()
	defer r.c.Evict(r.path)

	now := time.Now()
	res.CleanedTemp = cleanStaleData(r.path, now)
	if res.CleanedFetchRefs, err = r.dropAbandonedFetchRefs(ctx, now); err != nil {
		return res, fmt.Errorf("housekeeping: %w", err)
	}
	st, err := gatherStats(r.path, now)
	if err != nil {
		return res, fmt.Errorf("housekeeping: %w", err)
	}
	res.Repack = planRepack(st, now, opts.Eager)
	if res.Repack != RepackNone {
		if err := r.repack(ctx, res.Repack); err != nil {
			return res, err
		}
	}
	if opts.Eager || st.staleLooseObjects > looseObjectLimit {
		if err := r.run(ctx, gitcmd.New("prune", "--expire=2.weeks.ago")); err != nil {
			return res, fmt.Errorf("housekeeping: prune: %w", err)
		}
		res.Pruned = true
	}
	if opts.Eager || tooManyLooseRefs(st) {
		if err := r.run(ctx, gitcmd.New("pack-refs", "--all")); err != nil {
			return res, fmt.Errorf("housekeeping: pack refs: %w", err)
		}
		res.PackedRefs = true
	}
	if st.looseRefs > 0 || st.packedRefsBytes > 0 {
		replace := opts.Eager || !st.commitGraph || !st.commitGraphBloom || res.Pruned || res.Repack == RepackFull
		if replace || res.Repack != RepackNone || st.refsChanged.After(st.commitGraphTime) {
			if err := r.writeCommitGraph(ctx, replace); err != nil {
				return res, err
			}
			res.CommitGraph, res.ReplacedCommitGraph = true, replace
		}
	}
	return res, nil
}

// planRepack picks the repack the state calls for (see Housekeep).
func planRepack(st repoStats, now time.Time, eager bool) RepackKind {
	switch {
	case st.packs == 0 && st.looseObjects == 0:
		return RepackNone
	case eager:
		return RepackFull
	case st.packs-st.cruftPacks > 1 && now.Sub(st.lastFullRepack) > fullRepackCooldown:
		return RepackFull
	case !st.midx || !st.bitmap:
		return RepackGeometric
	case float64(st.packs-st.midxPacks) > allowedUntrackedPacks(st.packBytes):
		return RepackGeometric
	case st.looseObjects > looseObjectLimit:
		return RepackIncremental
	}
	return RepackNone
}

// allowedUntrackedPacks is how many packfiles outside the multi-pack-index a repository of
// this size may have before a geometric repack: 2 below 10 MB, then growing with the logarithm
// of the size (3 at 10 MB, 7 at 100 MB, 11 at 1 GB), as Gitaly allows.
func allowedUntrackedPacks(bytes int64) float64 {
	mb := float64(bytes) / (1 << 20)
	if mb < 1 {
		return 2
	}
	return math.Max(2, math.Floor(math.Log(mb)/math.Log(1.8)))
}

// tooManyLooseRefs: more loose refs than the packed refs' size allows (16 at least, then about
// 16 more for every tenfold of packed refs, as Gitaly allows).
func tooManyLooseRefs(st repoStats) bool {
	if st.looseRefs == 0 {
		return false
	}
	allowed := 16.0
	if st.packedRefsBytes > 100 {
		allowed = math.Max(allowed, math.Log(float64(st.packedRefsBytes)/100)/math.Log(1.15))
	}
	return float64(st.looseRefs) > allowed
}

// repack runs git repack for kind.
func (r *Repository) repack(ctx context.Context, kind RepackKind) error {
	var cmd *gitcmd.Cmd
	switch kind {
	case RepackIncremental:
		cmd = gitcmd.New("repack", "-d", "-l")
	case RepackGeometric:
		cmd = gitcmd.New("repack", "-d", "-l", "--geometric=2", "--write-midx", "--write-bitmap-index")
	case RepackFull:
		cmd = gitcmd.New("repack", "-d", "-l", "-a", "--cruft", "--cruft-expiration=2.weeks.ago", "--write-midx", "--write-bitmap-index")
	default:
		return fmt.Errorf("%w: repack %q", ErrInvalidArgument, kind)
	}
	if err := r.run(ctx, cmd); err != nil {
		return fmt.Errorf("housekeeping: %s repack: %w", kind, err)
	}
	if kind == RepackFull {
		if err := touch(filepath.Join(r.path, fullRepackMarker)); err != nil {
			return fmt.Errorf("housekeeping: %w", err)
		}
	}
	return nil
}

// writeCommitGraph writes the commit-graph of every reachable commit with changed-path Bloom
// filters, as a split chain: replace starts a new chain, otherwise the new commits are added
// and small layers merged.
func (r *Repository) writeCommitGraph(ctx context.Context, replace bool) error {
	cmd := gitcmd.New("commit-graph", "--reachable", "--changed-paths", "--size-multiple=4").Action("write")
	if replace {
		cmd.Flag("--split=replace")
	} else {
		cmd.Flag("--split")
	}
	if err := r.run(ctx, cmd); err != nil {
		return fmt.Errorf("housekeeping: commit-graph: %w", err)
	}
	return nil
}

// HoldHousekeeping takes the repository's housekeeping lock for a caller about to remove the
// repository, so that no housekeeping runs in it meanwhile: the git processes of one still
// running would recreate the directories they write into (git makes the missing leading
// directories of a new pack or commit-graph) once the repository is gone. ok is false while a
// housekeeping holds the lock; release gives it back.
func (r *Repository) HoldHousekeeping() (release func(), ok bool, err error) {
	return lockHousekeeping(r.path)
}

// lockHousekeeping takes the repository's housekeeping lock; ok is false when another
// housekeeping holds it. A lock older than staleLockAge is a crash's leftover and is taken over.
func lockHousekeeping(repo string) (unlock func(), ok bool, err error) {
	path := filepath.Join(repo, housekeepingLock)
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_ = f.Close()
			return func() { _ = os.Remove(path) }, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		st, serr := os.Stat(path)
		if serr != nil || time.Since(st.ModTime()) < staleLockAge {
			return nil, false, nil
		}
		_ = os.Remove(path)
	}
	return nil, false, nil
}

// cleanStaleData removes what crashed writers leave behind and git never removes on its own:
// receive-pack quarantine directories and temporary packs older than a day, and ref or config
// lock files older than an hour. It returns how many it removed.
func cleanStaleData(repo string, now time.Time) int {
	n := 0
	remove := func(path string, maxAge time.Duration) {
		st, err := os.Lstat(path)
		if err != nil || now.Sub(st.ModTime()) < maxAge {
			return
		}
		if os.RemoveAll(path) == nil {
			n++
		}
	}
	objects := filepath.Join(repo, "objects")
	if entries, err := os.ReadDir(objects); err == nil {
		for _, e := range entries {
			if e.IsDir() && (strings.HasPrefix(e.Name(), "incoming-") || strings.HasPrefix(e.Name(), "tmp_objdir-")) {
				remove(filepath.Join(objects, e.Name()), staleTempAge)
			}
		}
	}
	if entries, err := os.ReadDir(filepath.Join(objects, "pack")); err == nil {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "tmp_") || strings.HasPrefix(e.Name(), ".tmp-") {
				remove(filepath.Join(objects, "pack", e.Name()), staleTempAge)
			}
		}
	}
	for _, name := range []string{"packed-refs.lock", "config.lock", "HEAD.lock"} {
		remove(filepath.Join(repo, name), staleLockAge)
	}
	_ = filepath.WalkDir(filepath.Join(repo, "refs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
			remove(path, staleLockAge)
		}
		return nil
	})
	return n
}

// dropAbandonedFetchRefs deletes the temporary refs FetchFrom holds received objects by when
// a crash kept it from deleting them. A copy holds them only for the instant between
// receive-pack creating them and its own ref transaction, so a loose one older than an hour,
// or one already folded into packed-refs by an earlier housekeeping, is abandoned. Each is
// deleted with its expected value, so a copy finishing at the same moment is harmless.
func (r *Repository) dropAbandonedFetchRefs(ctx context.Context, now time.Time) (int, error) {
	refs, err := r.ListRefs(ctx, ListRefsOptions{Patterns: []string{tmpFetchPrefix}})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ref := range refs {
		loose := filepath.Join(r.path, filepath.FromSlash(ref.Name))
		if st, err := os.Lstat(loose); err == nil && now.Sub(st.ModTime()) < staleLockAge {
			continue
		}
		if r.UpdateRef(ctx, ref.Name, ZeroOID, ref.Target) == nil {
			n++
		}
	}
	return n, nil
}

// touch creates path or sets its modification time to now.
func touch(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	now := time.Now()
	return os.Chtimes(path, now, now)
}
