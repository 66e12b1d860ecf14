package repos_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/protectedbranch"
	"anvil/ent/pushevent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"
	"anvil/internal/service/repos"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// writeFixture is a server, a repository service logging into a buffer, and a project with a
// README owned by a new user.
type writeFixture struct {
	in    *servertest.Instance
	svc   *repos.Service
	logs  *syncBuffer
	actor *authz.Actor
	p     *ent.Project
	repo  *git.Repository
}

func newWriteFixture(t *testing.T) *writeFixture {
	t.Helper()
	in := servertest.Start(t)
	ctx := context.Background()
	u, _ := in.NewUser(t, "writer")
	actor := authz.System(u)
	path := "w"
	p, _, err := in.Services.Projects.Create(ctx, actor, projects.CreateInput{
		Attributes: projects.Attributes{Path: &path}, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	p, err = in.DB.Client.Project.Get(ctx, p.ID)
	require.NoError(t, err)
	logs := &syncBuffer{}
	s := in.Services
	svc := repos.New(repos.Deps{Client: in.DB.Client, Policy: s.Policy, Projects: s.Projects, Settings: s.Settings,
		Git: s.Git, Storage: s.Repos.Storage, Log: slog.New(slog.NewTextHandler(logs, nil)), Protected: s.ProtectedBranches, Jobs: s.Jobs, Pushes: s.Webhooks})
	repo, err := svc.Repository(p)
	require.NoError(t, err)
	return &writeFixture{in: in, svc: svc, logs: logs, actor: actor, p: p, repo: repo}
}

// commitOn prepares a commit changing one file on top of parent.
func (f *writeFixture) commitOn(t *testing.T, parent git.ObjectID, file, content string) git.CommitTreeOptions {
	t.Helper()
	tree, err := f.repo.EditTree(context.Background(), string(parent), []git.TreeAction{{Action: git.ActionCreate, Path: file, Content: []byte(content)}})
	require.NoError(t, err)
	sig := git.Signature{Name: "Writer", Email: "writer@example.com", When: time.Now()}
	return git.CommitTreeOptions{Tree: tree, Parents: []git.ObjectID{parent}, Message: "add " + file + "\n", Author: sig, Committer: sig}
}

// pushEvents returns the project's push records, oldest first.
func (f *writeFixture) pushEvents(t *testing.T) []*ent.PushEvent {
	t.Helper()
	evs, err := f.in.DB.Client.PushEvent.Query().Where(pushevent.ProjectID(f.p.ID)).Order(ent.Asc(pushevent.FieldID)).All(context.Background())
	require.NoError(t, err)
	return evs
}

// The README of a new project is written like every API commit: recorded as its creator's push,
// which protects the default branch.
func TestCommitToBranch_readme(t *testing.T) {
	f := newWriteFixture(t)
	evs := f.pushEvents(t)
	require.Len(t, evs, 1)
	tip, ok, err := f.repo.BranchTip(context.Background(), "main")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "refs/heads/main", evs[0].Ref)
	assert.Equal(t, pushevent.ActionCreated, evs[0].Action)
	assert.Equal(t, string(tip), evs[0].After)
	assert.Equal(t, []string{string(tip)}, evs[0].CommitIds)
	assert.Equal(t, "Initial commit", evs[0].CommitTitle)
	require.NotNil(t, evs[0].UserID)
	assert.Equal(t, f.actor.User.ID, *evs[0].UserID)
	n, err := f.in.DB.Client.ProtectedBranch.Query().Where(protectedbranch.ProjectID(f.p.ID), protectedbranch.Name("main")).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the default branch is protected")
}

// Concurrent writers prepared against the same tip: one commit lands, every other writer gets
// GitLab's answer (and git.ErrStaleRef underneath), and only the winner's push is recorded.
func TestCommitToBranch_concurrentWriters(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	tip, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	before := len(f.pushEvents(t))

	const writers = 8
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []git.ObjectID
		losers  []error
	)
	start := make(chan struct{})
	for i := range writers {
		opts := f.commitOn(t, tip, "w"+string(rune('a'+i))+".txt", "content\n")
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			id, err := f.svc.CommitToBranch(ctx, f.actor, f.p, f.repo, repos.BranchCommit{Branch: "main", Commit: opts, Old: tip})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				losers = append(losers, err)
				return
			}
			winners = append(winners, id)
		}()
	}
	close(start)
	wg.Wait()

	require.Len(t, winners, 1)
	require.Len(t, losers, writers-1)
	for _, err := range losers {
		e, ok := apperr.As(err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, apperr.KindBadRequest, e.Kind, "answered 400 with GitLab's sentence")
		assert.Equal(t, "Could not update refs/heads/main. Please refresh and try again.", e.Message)
		assert.True(t, errors.Is(err, git.ErrStaleRef))
	}
	now, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, winners[0], now)
	evs := f.pushEvents(t)
	require.Len(t, evs, before+1, "only the winner's push is recorded")
	last := evs[len(evs)-1]
	assert.Equal(t, string(tip), last.Before)
	assert.Equal(t, string(winners[0]), last.After)
	assert.Equal(t, pushevent.ActionPushed, last.Action)
	assert.Empty(t, f.logs.String())
}

// A branch name git refuses, or one clashing with an existing branch, is GitLab's "Branch name
// is invalid"; nothing moves and nothing is recorded.
func TestCommitToBranch_badName(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	tip, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	before := len(f.pushEvents(t))
	_, err = f.svc.CommitToBranch(ctx, f.actor, f.p, f.repo, repos.BranchCommit{Branch: "main/sub", Commit: f.commitOn(t, tip, "x.txt", "x"), Old: git.ZeroOID})
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, "Something went wrong when we tried to create 'main/sub' for you: Branch name is invalid", e.Message)
	assert.True(t, errors.Is(err, git.ErrReferenceExists))
	assert.Len(t, f.pushEvents(t), before)
}

// A push that cannot be recorded does not undo or refuse the acknowledged commit: it is logged.
func TestCommitToBranch_unrecordedPushIsLogged(t *testing.T) {
	f := newWriteFixture(t)
	ctx := context.Background()
	tip, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	// The project row goes away behind the service's back, so the record cannot be written.
	_, err = f.in.DB.Client.Project.Delete().Where(project.ID(f.p.ID)).Exec(ctx)
	require.NoError(t, err)
	id, err := f.svc.CommitToBranch(ctx, f.actor, f.p, f.repo, repos.BranchCommit{Branch: "main", Commit: f.commitOn(t, tip, "y.txt", "y"), Old: tip})
	require.NoError(t, err)
	now, _, err := f.repo.BranchTip(ctx, "main")
	require.NoError(t, err)
	assert.Equal(t, id, now)
	assert.Contains(t, f.logs.String(), "record push")
	assert.Contains(t, f.logs.String(), "project_id=")
}
