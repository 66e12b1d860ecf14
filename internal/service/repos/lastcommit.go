package repos

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"anvil/ent"
	"anvil/ent/lastcommit"
	"anvil/internal/git"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Bounds of the last-commit cache.
const (
	// lastCommitMemory is how many entries the process keeps in memory (about 150 bytes each).
	lastCommitMemory = 100_000
	// lastCommitPerProject is how many entries the database keeps per project; the oldest go
	// first.
	lastCommitPerProject = 20_000
	// lastCommitPruneEvery is how many new entries of a project a process writes between two
	// checks of the project's bound.
	lastCommitPruneEvery = 500
)

// lastCommitKey names one cache entry.
type lastCommitKey struct {
	project int
	key     string
}

// lastCommitCache remembers the last commit of a path as of a commit. Both are immutable, so
// an answer never goes stale, and finding it again means walking the history (tens of
// milliseconds on a large repository even with changed-path Bloom filters, over a second
// without). Entries live in the database (table last_commits, shared by every replica and
// kept across restarts, bounded per project) with the most recent ones in memory in front.
type lastCommitCache struct {
	client *ent.Client
	mem    *lru.Cache[lastCommitKey, git.ObjectID]
	mu     sync.Mutex
	writes map[int]int // new entries per project since the last bound check
	// perProject and pruneEvery are lastCommitPerProject and lastCommitPruneEvery (tests
	// lower them).
	perProject, pruneEvery int
	// postgres: the database is PostgreSQL (found out on the first write).
	dialectOnce sync.Once
	postgres    bool
}

func newLastCommitCache(client *ent.Client) *lastCommitCache {
	mem, err := lru.New[lastCommitKey, git.ObjectID](lastCommitMemory)
	if err != nil {
		panic(err) // only for a non-positive size
	}
	return &lastCommitCache{client: client, mem: mem, writes: map[int]int{},
		perProject: lastCommitPerProject, pruneEvery: lastCommitPruneEvery}
}

// cacheKey is the entry's key: the SHA-256 of the commit id, a NUL and the path.
func cacheKey(commit git.ObjectID, path string) string {
	sum := sha256.Sum256([]byte(string(commit) + "\x00" + path))
	return hex.EncodeToString(sum[:])
}

// LastCommitForPath returns the newest commit reachable from commit (a full commit id) that
// changed path: what GitLab shows as a file's last_commit_id and X-Gitlab-Last-Commit-Id, and
// a tree's last commit. The root path ("") is the commit itself. Answers are cached (see
// lastCommitCache); the cache never decides a failure: when it cannot be read or written, git
// answers and the problem is logged. A path with no history fails with git.ErrPathNotFound.
func (s *Service) LastCommitForPath(ctx context.Context, p *ent.Project, repo *git.Repository, commit git.ObjectID, path string) (git.ObjectID, error) {
	if err := commit.Validate(); err != nil {
		return "", err
	}
	clean, err := git.CleanPath(path)
	if err != nil {
		return "", err
	}
	if clean == "" {
		return commit, nil
	}
	k := lastCommitKey{project: p.ID, key: cacheKey(commit, clean)}
	c := s.lastCommits
	if id, ok := c.mem.Get(k); ok {
		return id, nil
	}
	row, err := c.client.LastCommit.Query().Where(lastcommit.ProjectID(k.project), lastcommit.Key(k.key)).
		Select(lastcommit.FieldLastCommitID).Only(ctx)
	switch {
	case err == nil:
		id := git.ObjectID(row.LastCommitID)
		c.mem.Add(k, id)
		return id, nil
	case !ent.IsNotFound(err):
		s.log.WarnContext(ctx, "read last commit cache", "project_id", p.ID, "err", err)
	}
	last, err := repo.LastCommitForPath(ctx, string(commit), clean)
	if err != nil {
		return "", err
	}
	c.mem.Add(k, last.ID)
	if err := c.store(context.WithoutCancel(ctx), k, last.ID); err != nil {
		s.log.WarnContext(ctx, "write last commit cache", "project_id", p.ID, "err", err)
	}
	return last.ID, nil
}

// store writes an entry (another process may have written it first) and now and then trims
// the project's entries to the bound. It runs outside any transaction of the caller: the
// entry is true whatever the caller's transaction does.
func (c *lastCommitCache) store(ctx context.Context, k lastCommitKey, id git.ObjectID) error {
	if err := c.insert(ctx, k, id); err != nil {
		return err
	}
	c.mu.Lock()
	c.writes[k.project]++
	prune := c.writes[k.project] >= c.pruneEvery
	if prune {
		delete(c.writes, k.project)
	}
	c.mu.Unlock()
	if prune {
		return c.prune(ctx, k.project)
	}
	return nil
}

// insert writes one entry; an entry written first by another process stays. On PostgreSQL the
// write does not wait for the write-ahead log to reach the disk (synchronous_commit off for this
// transaction alone): a read request should not wait for an fsync, and an entry lost in a crash
// is only asked of git again.
func (c *lastCommitCache) insert(ctx context.Context, k lastCommitKey, id git.ObjectID) error {
	c.dialectOnce.Do(func() {
		rows, err := c.client.QueryContext(ctx, "SELECT version()")
		if err != nil {
			return // SQLite has no version()
		}
		defer rows.Close()
		var v string
		if rows.Next() && rows.Scan(&v) == nil {
			c.postgres = strings.HasPrefix(v, "PostgreSQL")
		}
	})
	create := func(client *ent.Client) error {
		err := client.LastCommit.Create().SetProjectID(k.project).SetKey(k.key).SetLastCommitID(string(id)).
			OnConflictColumns(lastcommit.FieldProjectID, lastcommit.FieldKey).DoNothing().Exec(ctx)
		if errors.Is(err, sql.ErrNoRows) { // DO NOTHING on a conflict returns no row
			return nil
		}
		return err
	}
	if !c.postgres {
		return create(c.client)
	}
	tx, err := c.client.Tx(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit TO OFF"); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := create(tx.Client()); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// prune keeps the newest perProject entries of project.
func (c *lastCommitCache) prune(ctx context.Context, project int) error {
	ids, err := c.client.LastCommit.Query().Where(lastcommit.ProjectID(project)).
		Order(ent.Desc(lastcommit.FieldID)).Offset(c.perProject).Limit(1).IDs(ctx)
	if err != nil || len(ids) == 0 {
		return err
	}
	if _, err := c.client.LastCommit.Delete().Where(lastcommit.ProjectID(project), lastcommit.IDLTE(ids[0])).Exec(ctx); err != nil {
		return fmt.Errorf("prune last commit cache: %w", err)
	}
	return nil
}

// forget drops the entries of deleted projects, in the transaction of the deletion when ctx
// carries one.
func (c *lastCommitCache) forget(ctx context.Context, client *ent.Client, projects ...int) error {
	_, err := client.LastCommit.Delete().Where(lastcommit.ProjectIDIn(projects...)).Exec(ctx)
	return err
}
