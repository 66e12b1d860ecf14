package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// engine is River over one database driver: riverpgxv5 on PostgreSQL, riversqlite on SQLite.
type engine interface {
	start(ctx context.Context) error
	stop(ctx context.Context) error
	// move moves up to limit outbox rows of the kinds into River and reports how many it read.
	move(ctx context.Context, kinds []string, limit int) (int, error)
}

// Migrate applies River's migrations (its tables beside ent's). The server runs it at start,
// right after ent's migration.
func (q *Queue) Migrate(ctx context.Context) error {
	var err error
	if q.db.Dialect == dialect.SQLite {
		err = migrate(ctx, riversqlite.New(q.db.SQL))
	} else {
		var pool *pgxpool.Pool
		if pool, err = q.pgxPool(); err == nil {
			err = migrate(ctx, riverpgxv5.New(pool))
		}
	}
	if err != nil {
		return fmt.Errorf("migrate job queue: %w", err)
	}
	return nil
}

func migrate[TTx any](ctx context.Context, drv riverdriver.Driver[TTx]) error {
	m, err := rivermigrate.New(drv, &rivermigrate.Config{Logger: quiet(slog.Default())})
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

// pgxPool opens (once) the pgx pool River uses on PostgreSQL.
func (q *Queue) pgxPool() (*pgxpool.Pool, error) {
	if q.pool != nil {
		return q.pool, nil
	}
	cfg, err := pgxpool.ParseConfig(q.dbURL)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = int32(q.cfg.Workers + 4)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	q.pool = pool
	return pool, nil
}

// riverConfig is the River client configuration shared by both drivers.
func (q *Queue) riverConfig() *river.Config {
	return &river.Config{
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: q.cfg.Workers}},
		Workers:              q.workers,
		PeriodicJobs:         q.period,
		FetchPollInterval:    q.cfg.PollInterval,
		FetchCooldown:        min(q.cfg.PollInterval, river.FetchCooldownDefault),
		JobTimeout:           q.cfg.JobTimeout,
		RescueStuckJobsAfter: q.cfg.RescueAfter,
		ErrorHandler:         errorLogger{q.log},
		Logger:               quiet(q.log),
		WorkerMiddleware:     []rivertype.WorkerMiddleware{&q.busy},
	}
}

// newEngine builds the River client for the database.
func (q *Queue) newEngine() (engine, error) {
	if q.db.Dialect == dialect.SQLite {
		client, err := river.NewClient(riversqlite.New(q.db.SQL), q.riverConfig())
		if err != nil {
			return nil, err
		}
		sqlDB := q.db.SQL
		return &riverEngine[*sql.Tx]{
			client: client, decode: q.decode, log: q.log, sqlite: true,
			begin: func(ctx context.Context) (*sql.Tx, error) { return sqlDB.BeginTx(ctx, nil) },
			query: func(ctx context.Context, tx *sql.Tx, query string, args ...any) (rowScanner, error) {
				return tx.QueryContext(ctx, query, args...)
			},
			exec: func(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
				_, err := tx.ExecContext(ctx, query, args...)
				return err
			},
			commit:   func(_ context.Context, tx *sql.Tx) error { return tx.Commit() },
			rollback: func(_ context.Context, tx *sql.Tx) error { return tx.Rollback() },
		}, nil
	}
	pool, err := q.pgxPool()
	if err != nil {
		return nil, err
	}
	client, err := river.NewClient(riverpgxv5.New(pool), q.riverConfig())
	if err != nil {
		return nil, err
	}
	return &riverEngine[pgx.Tx]{
		client: client, decode: q.decode, log: q.log,
		begin: func(ctx context.Context) (pgx.Tx, error) { return pool.Begin(ctx) },
		query: func(ctx context.Context, tx pgx.Tx, query string, args ...any) (rowScanner, error) {
			rows, err := tx.Query(ctx, query, args...)
			if err != nil {
				return nil, err
			}
			return pgxRows{rows}, nil
		},
		exec: func(ctx context.Context, tx pgx.Tx, query string, args ...any) error {
			_, err := tx.Exec(ctx, query, args...)
			return err
		},
		commit:   func(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) },
		rollback: func(ctx context.Context, tx pgx.Tx) error { return tx.Rollback(ctx) },
	}, nil
}

// riverEngine is River's client with the transaction primitives of its driver.
type riverEngine[TTx any] struct {
	client   *river.Client[TTx]
	decode   func(kind string, raw []byte) (Args, error)
	log      *slog.Logger
	sqlite   bool
	begin    func(ctx context.Context) (TTx, error)
	query    func(ctx context.Context, tx TTx, query string, args ...any) (rowScanner, error)
	exec     func(ctx context.Context, tx TTx, query string, args ...any) error
	commit   func(ctx context.Context, tx TTx) error
	rollback func(ctx context.Context, tx TTx) error
}

// The client runs on a context of its own: it stops through stop, not through the caller's
// request or start context.
func (e *riverEngine[TTx]) start(context.Context) error {
	return e.client.Start(context.Background())
}

// stop lets running jobs finish until ctx ends, then cancels them (they run again elsewhere or
// after the next start: jobs are idempotent).
func (e *riverEngine[TTx]) stop(ctx context.Context) error {
	err := e.client.Stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return e.client.StopAndCancel(cctx)
	}
	return err
}

// rowScanner is the part of *sql.Rows and pgx.Rows the mover reads.
type rowScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

type pgxRows struct{ pgx.Rows }

func (r pgxRows) Close() error { r.Rows.Close(); return nil }

// errorLogger logs each failed run of a job; River retries it with its backoff (attempt⁴
// seconds plus jitter) until its attempts are used up, then discards it.
type errorLogger struct{ log *slog.Logger }

func (h errorLogger) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	h.log.WarnContext(ctx, "background job failed", "kind", job.Kind, "job_id", job.ID,
		"attempt", job.Attempt, "max_attempts", job.MaxAttempts, "err", err)
	return nil
}

func (h errorLogger) HandlePanic(ctx context.Context, job *rivertype.JobRow, v any, trace string) *river.ErrorHandlerResult {
	h.log.ErrorContext(ctx, "background job panicked", "kind", job.Kind, "job_id", job.ID,
		"attempt", job.Attempt, "panic", fmt.Sprint(v), "trace", trace)
	return nil
}

// quiet keeps River's routine information (client started, leader elected) out of the log.
func quiet(log *slog.Logger) *slog.Logger {
	return slog.New(minLevel{log.Handler(), slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// Handle drops River's complaints about its own shutdown (a maintenance step whose context
// was cancelled by Stop): they are not errors.
func (h minLevel) Handle(ctx context.Context, r slog.Record) error {
	cancelled := false
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "error" && strings.Contains(a.Value.String(), context.Canceled.Error()) {
			cancelled = true
			return false
		}
		return true
	})
	if cancelled {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
