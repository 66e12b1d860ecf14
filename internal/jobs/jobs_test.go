package jobs_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/db"
	"anvil/internal/jobs"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// probe is a test job kind: its runs are counted by Key.
type probe struct {
	Key string `json:"key"`
}

func (probe) Kind() string { return "test_probe" }

// uniqueProbe is a probe that is unique while queued.
type uniqueProbe struct {
	Key string `json:"key"`
}

func (uniqueProbe) Kind() string { return "test_unique_probe" }

func (uniqueProbe) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued()}
}

// runs counts the runs of each key.
type runs struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *runs) add(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[key]++
}

func (r *runs) get(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[key]
}

// openQueue opens a fresh migrated database (SQLite, or PostgreSQL when configured) and a
// queue over it; register adds kinds before the queue starts.
func openQueue(t *testing.T, register func(q *jobs.Queue)) (*db.DB, *jobs.Queue) {
	t.Helper()
	url := servertest.Database(t)
	d, err := db.Open(url, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()
	require.NoError(t, d.Migrate(ctx))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	q := jobs.New(d, url, jobs.Config{PollInterval: 50 * time.Millisecond}, log)
	require.NoError(t, q.Migrate(ctx))
	register(q)
	require.NoError(t, q.Start(ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = q.Stop(ctx)
	})
	return d, q
}

// TestEnqueue_isPartOfTheTransaction: a job enqueued in a transaction that rolls back never
// runs; one whose transaction commits runs once, as does one enqueued outside a transaction.
// Nothing is left in the outbox.
func TestEnqueue_isPartOfTheTransaction(t *testing.T) {
	var r runs
	d, q := openQueue(t, func(q *jobs.Queue) {
		jobs.Register(q, func(_ context.Context, p probe) error { r.add(p.Key); return nil })
	})
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.WithTx(ctx, d.Client, func(ctx context.Context, _ *ent.Client) error {
		require.NoError(t, q.Enqueue(ctx, probe{Key: "rolled-back"}))
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.NoError(t, db.WithTx(ctx, d.Client, func(ctx context.Context, _ *ent.Client) error {
		return q.Enqueue(ctx, probe{Key: "committed"})
	}))
	require.NoError(t, q.Enqueue(ctx, probe{Key: "direct"}))

	require.Eventually(t, func() bool { return r.get("committed") == 1 && r.get("direct") == 1 },
		20*time.Second, 10*time.Millisecond)
	time.Sleep(300 * time.Millisecond) // a second run or the rolled-back job would show by now
	assert.Equal(t, 1, r.get("committed"))
	assert.Equal(t, 1, r.get("direct"))
	assert.Equal(t, 0, r.get("rolled-back"))
	n, err := d.Client.JobOutbox.Query().Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "the outbox is empty once its jobs moved")

	assert.ErrorIs(t, q.Enqueue(ctx, uniqueProbe{Key: "x"}), jobs.ErrUnknownKind, "an unregistered kind is refused")
}

// TestRetry_withBackoff: a job that fails runs again (River's backoff) until it succeeds.
func TestRetry_withBackoff(t *testing.T) {
	var attempts atomic.Int32
	done := make(chan struct{})
	_, q := openQueue(t, func(q *jobs.Queue) {
		jobs.Register(q, func(_ context.Context, p probe) error {
			if attempts.Add(1) == 1 {
				return errors.New("first attempt fails")
			}
			close(done)
			return nil
		})
	})
	require.NoError(t, q.Enqueue(context.Background(), probe{Key: "retry"}))
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the failed job was not retried (attempts: %d)", attempts.Load())
	}
	assert.Equal(t, int32(2), attempts.Load())
}

// TestUnique_whileQueued: enqueueing a unique job again while one with the same arguments is
// running does nothing; once it has finished, the next enqueue runs it again.
func TestUnique_whileQueued(t *testing.T) {
	var r runs
	started, release := make(chan struct{}, 10), make(chan struct{})
	d, q := openQueue(t, func(q *jobs.Queue) {
		jobs.Register(q, func(_ context.Context, p uniqueProbe) error {
			started <- struct{}{}
			<-release
			r.add(p.Key)
			return nil
		})
	})
	ctx := context.Background()
	require.NoError(t, q.Enqueue(ctx, uniqueProbe{Key: "a"}))
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the job did not start")
	}
	require.NoError(t, q.Enqueue(ctx, uniqueProbe{Key: "a"}))
	require.NoError(t, q.Enqueue(ctx, uniqueProbe{Key: "a"}))
	require.NoError(t, q.Enqueue(ctx, uniqueProbe{Key: "b"}))
	require.Eventually(t, func() bool {
		n, err := d.Client.JobOutbox.Query().Count(ctx)
		return err == nil && n == 0
	}, 20*time.Second, 10*time.Millisecond, "the duplicates left the outbox")
	close(release)
	require.Eventually(t, func() bool { return r.get("a") == 1 && r.get("b") == 1 }, 20*time.Second, 10*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, 1, r.get("a"), "the duplicates of a running job were not queued")

	require.NoError(t, q.Enqueue(ctx, uniqueProbe{Key: "a"}))
	require.Eventually(t, func() bool { return r.get("a") == 2 }, 20*time.Second, 10*time.Millisecond,
		"a finished job does not block the next")
}

// TestPeriodic_runsAtStartAndAgain: a periodic job runs when the queue starts and again each
// interval.
func TestPeriodic_runsAtStartAndAgain(t *testing.T) {
	var r runs
	openQueue(t, func(q *jobs.Queue) {
		jobs.Register(q, func(_ context.Context, p probe) error { r.add(p.Key); return nil })
		jobs.Periodic(q, time.Second, probe{Key: "tick"})
	})
	require.Eventually(t, func() bool { return r.get("tick") >= 2 }, 30*time.Second, 20*time.Millisecond)
}

// TestRegister_refusesMisuse: a kind registered twice, or a periodic job of an unknown kind,
// is a wiring error that panics at start.
func TestRegister_refusesMisuse(t *testing.T) {
	q := jobs.New(&db.DB{}, "", jobs.Config{}, slog.Default())
	jobs.Register(q, func(context.Context, probe) error { return nil })
	assert.Panics(t, func() { jobs.Register(q, func(context.Context, probe) error { return nil }) })
	assert.Panics(t, func() { jobs.Periodic(q, time.Hour, uniqueProbe{}) })
}
