package storagemoves_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/projectrepositorystoragemove"
	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/storagemoves"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// world is a server with storages "default" and "second" and a project with history on
// "default".
type world struct {
	in      *servertest.Instance
	ctx     context.Context
	project *ent.Project
	sum     string // the refs' checksum of the project's repository
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	in := servertest.Start(t, func(c *config.Config) {
		c.RepositoryStorages = map[string]string{"default": filepath.Join(dir, "a"), "second": filepath.Join(dir, "b")}
	})
	ctx := t.Context()
	root, err := in.Services.Users.FindByRef(ctx, "root")
	require.NoError(t, err)
	name := "alpha"
	p, _, err := in.Services.Projects.Create(ctx, &authz.Actor{User: root}, projects.CreateInput{
		Attributes: projects.Attributes{Name: &name}, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	in.WaitJobs(t) // the first push's housekeeping is done before the tests touch the repository
	w := &world{in: in, ctx: ctx, project: p}
	repo := w.repo(t, "default")
	head, err := repo.ResolveCommit(ctx, "main")
	require.NoError(t, err)
	next := servertest.Commit(t, repo, head, "b.txt", 1)
	servertest.SetBranch(t, repo, "topic", next)
	require.NoError(t, repo.UpdateRef(ctx, "refs/keep-around/"+string(head), head, ""))
	w.sum, err = repo.RefsChecksum(ctx)
	require.NoError(t, err)
	return w
}

// repo is the project's repository on a storage.
func (w *world) repo(t *testing.T, storageName string) *git.Repository {
	t.Helper()
	r, err := w.in.Services.Repos.Storage.Repository(storageName, w.project.DiskPath)
	require.NoError(t, err)
	return r
}

// move inserts a move in state, as a crash would have left it, with the project read-only
// when the state says it moves.
func (w *world) move(t *testing.T, state projectrepositorystoragemove.State, checksum string) *ent.ProjectRepositoryStorageMove {
	t.Helper()
	m, err := w.in.DB.Client.ProjectRepositoryStorageMove.Create().SetProjectID(w.project.ID).SetState(state).
		SetSourceStorageName("default").SetDestinationStorageName("second").SetChecksum(checksum).Save(w.ctx)
	require.NoError(t, err)
	if state == projectrepositorystoragemove.StateScheduled || state == projectrepositorystoragemove.StateStarted {
		require.NoError(t, w.in.DB.Client.Project.UpdateOneID(w.project.ID).SetRepositoryReadOnly(true).Exec(w.ctx))
	}
	return m
}

// state is the move's recorded state; where the project's storage and read-only flag.
func (w *world) state(t *testing.T, id int) (state projectrepositorystoragemove.State, where string, readOnly bool) {
	t.Helper()
	m, err := w.in.DB.Client.ProjectRepositoryStorageMove.Get(w.ctx, id)
	require.NoError(t, err)
	p, err := w.in.DB.Client.Project.Get(w.ctx, w.project.ID)
	require.NoError(t, err)
	return m.State, p.RepositoryStorage, p.RepositoryReadOnly
}

// switched records what a crash right after the switch leaves: a verified copy on "second",
// the project pointing at it, the move replicated.
func (w *world) switched(t *testing.T) *ent.ProjectRepositoryStorageMove {
	t.Helper()
	dst, err := w.in.Services.Repos.Storage.Create(w.ctx, "second", w.project.DiskPath, "main")
	require.NoError(t, err)
	require.NoError(t, dst.MirrorFrom(w.ctx, w.repo(t, "default")))
	require.NoError(t, w.in.DB.Client.Project.UpdateOneID(w.project.ID).SetRepositoryStorage("second").Exec(w.ctx))
	return w.move(t, projectrepositorystoragemove.StateReplicated, w.sum)
}

// TestRun_resumes: Run picks a move up from every state a crash can leave and ends it, without
// losing a ref; a second Run changes nothing.
func TestRun_resumes(t *testing.T) {
	t.Run("scheduled, through its job", func(t *testing.T) {
		w := newWorld(t)
		m := w.move(t, projectrepositorystoragemove.StateScheduled, "")
		require.NoError(t, w.in.Services.StorageMoves.RunJob(w.ctx, storagemoves.MoveJob{MoveID: m.ID}))
		state, where, ro := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state)
		assert.Equal(t, "second", where)
		assert.False(t, ro)
		sum, err := w.repo(t, "second").RefsChecksum(w.ctx)
		require.NoError(t, err)
		assert.Equal(t, w.sum, sum, "every ref and HEAD copied")
		assert.False(t, w.repo(t, "default").Exists())
	})
	t.Run("started, with a partial copy on the destination", func(t *testing.T) {
		w := newWorld(t)
		m := w.move(t, projectrepositorystoragemove.StateStarted, "")
		partial, err := w.in.Services.Repos.Storage.Create(w.ctx, "second", w.project.DiskPath, "main")
		require.NoError(t, err)
		stray := servertest.Commit(t, partial, "", "stray.txt", 9)
		servertest.SetBranch(t, partial, "stray", stray)
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, ro := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state)
		assert.Equal(t, "second", where)
		assert.False(t, ro)
		sum, err := w.repo(t, "second").RefsChecksum(w.ctx)
		require.NoError(t, err)
		assert.Equal(t, w.sum, sum, "the partial copy was replaced, not trusted")
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, _ = w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state, "a second run is a no-op")
		assert.Equal(t, "second", where)
	})
	t.Run("replicated, source not yet removed", func(t *testing.T) {
		w := newWorld(t)
		m := w.switched(t)
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, _ := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state)
		assert.Equal(t, "second", where)
		assert.False(t, w.repo(t, "default").Exists())
		assert.True(t, w.repo(t, "second").Exists())
	})
	t.Run("replicated, source already removed", func(t *testing.T) {
		w := newWorld(t)
		m := w.switched(t)
		require.NoError(t, w.in.Services.Repos.Storage.Remove(w.ctx, "default", w.project.DiskPath))
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, _, _ := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state)
	})
}

// TestRun_neverLoses: a source written after the copy is kept (cleanup failed), a copy that
// cannot be made leaves the project where it was, writable.
func TestRun_neverLoses(t *testing.T) {
	t.Run("a write that reached the source after the copy keeps the source", func(t *testing.T) {
		w := newWorld(t)
		m := w.switched(t)
		src := w.repo(t, "default")
		late := servertest.Commit(t, src, "", "late.txt", 5)
		servertest.SetBranch(t, src, "late", late)
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, _ := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateCleanupFailed, state)
		assert.Equal(t, "second", where)
		assert.True(t, src.Exists(), "kept for an administrator")
	})
	t.Run("a destination gone after the switch keeps the source", func(t *testing.T) {
		w := newWorld(t)
		m := w.switched(t)
		require.NoError(t, os.RemoveAll(w.repo(t, "second").Path()))
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, _, _ := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateCleanupFailed, state)
		assert.True(t, w.repo(t, "default").Exists(), "the last copy stays")
	})
	t.Run("a missing source fails the move", func(t *testing.T) {
		w := newWorld(t)
		m := w.move(t, projectrepositorystoragemove.StateStarted, "")
		require.NoError(t, os.RemoveAll(w.repo(t, "default").Path()))
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, ro := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFailed, state)
		assert.Equal(t, "default", where)
		assert.False(t, ro, "writable again")
		assert.False(t, w.repo(t, "second").Exists(), "no copy left behind")
	})
	t.Run("a move to the storage the project is on removes nothing", func(t *testing.T) {
		w := newWorld(t)
		m, err := w.in.DB.Client.ProjectRepositoryStorageMove.Create().SetProjectID(w.project.ID).
			SetState(projectrepositorystoragemove.StateScheduled).
			SetSourceStorageName("default").SetDestinationStorageName("default").Save(w.ctx)
		require.NoError(t, err)
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		state, where, ro := w.state(t, m.ID)
		assert.Equal(t, projectrepositorystoragemove.StateFinished, state)
		assert.Equal(t, "default", where)
		assert.False(t, ro)
		sum, err := w.repo(t, "default").RefsChecksum(w.ctx)
		require.NoError(t, err)
		assert.Equal(t, w.sum, sum)
	})
	t.Run("a deleted project takes its moves along", func(t *testing.T) {
		w := newWorld(t)
		m := w.move(t, projectrepositorystoragemove.StateScheduled, "")
		root, err := w.in.Services.Users.FindByRef(w.ctx, "root")
		require.NoError(t, err)
		require.NoError(t, w.in.Services.Projects.Delete(w.ctx, &authz.Actor{User: root}, "root/alpha"))
		require.NoError(t, w.in.Services.StorageMoves.Run(w.ctx, m.ID))
		n, err := w.in.DB.Client.ProjectRepositoryStorageMove.Query().Count(w.ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}

// TestRepositoryInUse: the copy being made and the source not yet removed are claimed by their
// move; nothing else is.
func TestRepositoryInUse(t *testing.T) {
	w := newWorld(t)
	c, rel := w.in.DB.Client, w.project.DiskPath
	inUse := func(storageName string) bool {
		ok, err := storagemoves.RepositoryInUse(w.ctx, c, storageName, rel)
		require.NoError(t, err)
		return ok
	}
	assert.False(t, inUse("second"))
	m := w.move(t, projectrepositorystoragemove.StateStarted, "")
	assert.True(t, inUse("second"), "the copy on the destination")
	assert.False(t, inUse("default"), "the project names its source itself")
	for state, want := range map[projectrepositorystoragemove.State][2]bool{
		projectrepositorystoragemove.StateReplicated:    {true, false},
		projectrepositorystoragemove.StateCleanupFailed: {true, false},
		projectrepositorystoragemove.StateFinished:      {false, false},
		projectrepositorystoragemove.StateFailed:        {false, false},
	} {
		require.NoError(t, c.ProjectRepositoryStorageMove.UpdateOneID(m.ID).SetState(state).Exec(w.ctx))
		assert.Equal(t, want, [2]bool{inUse("default"), inUse("second")}, string(state))
	}
	ok, err := storagemoves.RepositoryInUse(w.ctx, c, "second", "@hashed/00/00/other.git")
	require.NoError(t, err)
	assert.False(t, ok)
}
