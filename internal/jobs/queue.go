// Package jobs is Anvil's durable background job queue: River (riverqueue.com) on the server's
// own database, riverpgxv5 on PostgreSQL and riversqlite on SQLite.
//
// A service enqueues a job inside the transaction of the change that causes it (Enqueue): the
// job is written to the job_outbox table through ent, so it commits or rolls back with the
// change. The queue moves outbox rows into River's table in one transaction of River's own
// driver (outbox.go), so a job is queued exactly once whatever crashes when; on PostgreSQL ent
// runs on lib/pq and River on pgx, which cannot share a transaction, and SQLite takes the same
// path so that there is one. Any replica may move and run any job. Jobs are retried with
// River's backoff, kinds may be unique and periodic, and their state is read by administrators
// through GitLab's Sidekiq metrics API (Stats).
//
// Adding a job kind: see docs/ARCHITECTURE.md "Background jobs"; the example to copy is
// internal/service/repos/housekeep_job.go.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"anvil/ent"
	"anvil/internal/db"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Args is a job kind's arguments: a JSON-encodable struct whose Kind names the kind (at least
// two characters of [\w-.:/+]). It may also implement InsertOpts() InsertOpts to make the kind
// unique, give it a queue, a priority or a number of attempts.
type Args = river.JobArgs

// InsertOpts are a kind's insert options (River's).
type InsertOpts = river.InsertOpts

// UniqueOpts say when a job is a duplicate of one already queued (River's).
type UniqueOpts = river.UniqueOpts

// UniqueWhileQueued makes a kind unique by its arguments while a job with the same arguments is
// waiting or running: enqueueing it again then does nothing. Once that job has finished, the
// next enqueue queues a new one.
func UniqueWhileQueued() UniqueOpts {
	return UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled,
	}}
}

// Config tunes the queue; zero values take the defaults.
type Config struct {
	// Workers is how many jobs one process runs at once (default 8).
	Workers int
	// PollInterval is how often a process looks for jobs it was not told about: all jobs on
	// SQLite, which has no LISTEN/NOTIFY; jobs retried or scheduled on PostgreSQL (default 1s).
	PollInterval time.Duration
	// JobTimeout bounds one run of a job (default 10 minutes).
	JobTimeout time.Duration
	// RescueAfter is when a job still marked running (its process died) is run again (default
	// JobTimeout + 5 minutes; at least JobTimeout).
	RescueAfter time.Duration
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 8
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = 10 * time.Minute
	}
	if c.RescueAfter < c.JobTimeout {
		c.RescueAfter = c.JobTimeout + 5*time.Minute
	}
	return c
}

// Queue is the job queue of one server process.
type Queue struct {
	db      *db.DB
	dbURL   string        // PostgreSQL's URL, for River's pgx pool
	pool    *pgxpool.Pool // River's connections on PostgreSQL (nil on SQLite)
	busy    busyCounter
	cfg     Config
	log     *slog.Logger
	workers *river.Workers
	kinds   map[string]func([]byte) (Args, error)
	period  []*river.PeriodicJob
	nudge   chan struct{}

	mu      sync.Mutex
	engine  engine // set by Start
	stop    context.CancelFunc
	stopped chan struct{}
	// startedAt is when Start ran (process_metrics' started_at).
	startedAt time.Time
}

// New builds the queue over the open database d, whose URL is dbURL (empty for SQLite). Kinds are registered (Register, Periodic)
// before Start; jobs may be enqueued at any time, also by a process that never starts the
// queue (they wait in the outbox for a process that does).
func New(d *db.DB, dbURL string, cfg Config, log *slog.Logger) *Queue {
	return &Queue{
		db: d, dbURL: dbURL, cfg: cfg.withDefaults(), log: log, workers: river.NewWorkers(),
		kinds: map[string]func([]byte) (Args, error){}, nudge: make(chan struct{}, 1),
	}
}

// Register makes work the handler of the kind T. It panics when the kind is registered twice or
// after Start: kinds are wired once, at start (internal/service/service.go). work must be
// idempotent: a job whose process dies while it runs is run again.
func Register[T Args](q *Queue, work func(ctx context.Context, args T) error) {
	var zero T
	kind := zero.Kind()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.engine != nil {
		panic("jobs: Register after Start: " + kind)
	}
	if _, dup := q.kinds[kind]; dup {
		panic("jobs: kind registered twice: " + kind)
	}
	q.kinds[kind] = func(raw []byte) (Args, error) {
		var a T
		err := json.Unmarshal(raw, &a)
		return a, err
	}
	river.AddWorker(q.workers, river.WorkFunc(func(ctx context.Context, job *river.Job[T]) error {
		return work(ctx, job.Args)
	}))
}

// Periodic queues args every interval on one replica (River's leader); the kind must be
// registered. A periodic job is unique while queued, so a slow run is never stacked on.
func Periodic(q *Queue, every time.Duration, args Args) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.kinds[args.Kind()]; !ok {
		panic("jobs: periodic job of an unregistered kind: " + args.Kind())
	}
	q.period = append(q.period, river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) {
			return args, &river.InsertOpts{UniqueOpts: UniqueWhileQueued()}
		}, &river.PeriodicJobOpts{ID: args.Kind(), RunOnStart: true}))
}

// ErrUnknownKind is returned by Enqueue for a kind nobody registered.
var ErrUnknownKind = errors.New("jobs: unknown job kind")

// Enqueue queues args. Inside a transaction (ctx from db.WithTx) the job is part of it: it
// exists once the transaction commits and never if it rolls back. Outside one it is queued at
// once.
func (q *Queue) Enqueue(ctx context.Context, args Args) error {
	q.mu.Lock()
	_, ok := q.kinds[args.Kind()]
	q.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownKind, args.Kind())
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("jobs: encode %s: %w", args.Kind(), err)
	}
	c := db.ClientFrom(ctx, q.db.Client)
	if err := c.JobOutbox.Create().SetKind(args.Kind()).SetArgs(string(raw)).Exec(ctx); err != nil {
		return fmt.Errorf("jobs: enqueue %s: %w", args.Kind(), err)
	}
	if tx := ent.TxFromContext(ctx); tx != nil {
		tx.OnCommit(func(next ent.Committer) ent.Committer {
			return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
				err := next.Commit(ctx, tx)
				if err == nil {
					q.wake()
				}
				return err
			})
		})
		return nil
	}
	q.wake()
	return nil
}

// wake tells the outbox mover that rows are waiting.
func (q *Queue) wake() {
	select {
	case q.nudge <- struct{}{}:
	default:
	}
}

// Enqueuer queues jobs; services take it rather than the Queue, so that a test may record what
// they queue.
type Enqueuer interface {
	Enqueue(ctx context.Context, args Args) error
}
