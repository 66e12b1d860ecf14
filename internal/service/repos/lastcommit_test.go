package repos_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"testing"

	"anvil/ent/lastcommit"
	"anvil/internal/git"
	"anvil/internal/service/repos"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLastCommitForPath(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	readme, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	second, err := f.svc.CommitToBranch(ctx, f.actor, f.p, f.repo, repos.BranchCommit{Branch: "main", Commit: f.commitOn(t, readme, "docs/a.txt", "a"), Old: readme})
	require.NoError(t, err)
	count := func() int {
		n, err := f.in.DB.Client.LastCommit.Query().Where(lastcommit.ProjectID(f.p.ID)).Count(ctx)
		require.NoError(t, err)
		return n
	}

	got, err := f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "README.md")
	require.NoError(t, err)
	assert.Equal(t, readme, got, "README.md last changed in the first commit")
	assert.Equal(t, 1, count(), "the answer is stored")
	assert.Equal(t, os.Getenv("ANVIL_TEST_DATABASE_URL") != "", repos.LastCommitWritesToPostgres(f.svc),
		"on PostgreSQL the write skips the commit's fsync")
	got, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "docs/a.txt")
	require.NoError(t, err)
	assert.Equal(t, second, got)
	got, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "docs")
	require.NoError(t, err)
	assert.Equal(t, second, got, "a directory's last commit")
	got, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "")
	require.NoError(t, err)
	assert.Equal(t, second, got, "the root is the commit itself")
	assert.Equal(t, 3, count())

	_, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "missing.txt")
	assert.ErrorIs(t, err, git.ErrPathNotFound)
	_, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, "main", "README.md")
	assert.ErrorIs(t, err, git.ErrInvalidObjectID, "only a commit id is a key")
	assert.Equal(t, 3, count(), "failures are not stored")

	t.Run("two processes storing the same answer", func(t *testing.T) {
		require.NoError(t, repos.StoreLastCommit(f.svc, f.p.ID, second, "README.md", readme))
		assert.Equal(t, 3, count())
	})

	t.Run("another process reads the stored answer", func(t *testing.T) {
		// Proof that the database answers: the stored value is altered behind the cache.
		key := f.in.DB.Client.LastCommit.Query().Where(lastcommit.ProjectID(f.p.ID), lastcommit.LastCommitID(string(readme))).OnlyX(ctx)
		marker := git.ObjectID("0123456789012345678901234567890123456789")
		f.in.DB.Client.LastCommit.DeleteOne(key).ExecX(ctx)
		f.in.DB.Client.LastCommit.Create().SetProjectID(f.p.ID).SetKey(key.Key).SetLastCommitID(string(marker)).ExecX(ctx)
		fresh := newService(t, f)
		got, err := fresh.LastCommitForPath(ctx, f.p, f.repo, second, "README.md")
		require.NoError(t, err)
		assert.Equal(t, marker, got)
		// The first service still answers from memory.
		got, err = f.svc.LastCommitForPath(ctx, f.p, f.repo, second, "README.md")
		require.NoError(t, err)
		assert.Equal(t, readme, got)
	})

	t.Run("entries are bounded per project, the oldest going first", func(t *testing.T) {
		s := newService(t, f)
		repos.SetLastCommitBounds(s, 5, 2)
		tip := second
		for i := range 8 {
			var err error
			tip, err = s.CommitToBranch(ctx, f.actor, f.p, f.repo, repos.BranchCommit{Branch: "main", Commit: f.commitOn(t, tip, fmt.Sprintf("n/%d.txt", i), "x"), Old: tip})
			require.NoError(t, err)
			_, err = s.LastCommitForPath(ctx, f.p, f.repo, tip, fmt.Sprintf("n/%d.txt", i))
			require.NoError(t, err)
		}
		assert.LessOrEqual(t, count(), 6)
		assert.GreaterOrEqual(t, count(), 5)
		newest, err := f.in.DB.Client.LastCommit.Query().Where(lastcommit.ProjectID(f.p.ID)).Order(lastcommit.ByID()).All(ctx)
		require.NoError(t, err)
		assert.Equal(t, string(tip), newest[len(newest)-1].LastCommitID, "the newest entry stays")
	})

	t.Run("a deleted project's entries go", func(t *testing.T) {
		require.NoError(t, f.svc.Delete(ctx, f.p))
		assert.Zero(t, count())
	})
}

// newService is a second repository service over the same database and storage, with a cache
// of its own in memory (as another replica has).
func newService(t *testing.T, f *writeFixture) *repos.Service {
	t.Helper()
	s := f.in.Services
	return repos.New(repos.Deps{Client: f.in.DB.Client, Policy: s.Policy, Projects: s.Projects, Settings: s.Settings,
		Git: s.Git, Storage: s.Repos.Storage, Log: slog.New(slog.NewTextHandler(f.logs, nil)), Protected: s.ProtectedBranches, Jobs: s.Jobs, Pushes: s.Webhooks})
}
