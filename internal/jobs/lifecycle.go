package jobs

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Start starts working jobs in this process: River's producers, its leader's maintenance
// (periodic jobs, retries, rescue of jobs whose process died, clean-up of finished jobs) and the
// outbox mover. Kinds must be registered before.
func (q *Queue) Start(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.engine != nil {
		return nil
	}
	e, err := q.newEngine()
	if err != nil {
		return fmt.Errorf("job queue: %w", err)
	}
	if err := e.start(ctx); err != nil {
		return fmt.Errorf("start job queue: %w", err)
	}
	kinds := make([]string, 0, len(q.kinds))
	for k := range q.kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	mctx, cancel := context.WithCancel(context.Background())
	q.engine, q.stop, q.stopped, q.startedAt = e, cancel, make(chan struct{}), time.Now()
	go q.moveLoop(mctx, e, kinds)
	return nil
}

// Stop stops the mover, lets running jobs finish until ctx ends and cancels those still running
// then. It does nothing when the queue was not started, and closes River's connections.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	e, cancel, stopped := q.engine, q.stop, q.stopped
	q.stop = nil
	q.mu.Unlock()
	var err error
	if cancel != nil {
		cancel()
		<-stopped
		err = e.stop(ctx)
	}
	if q.pool != nil {
		q.pool.Close()
		q.pool = nil
	}
	return err
}

// moveLoop moves outbox rows into River when a commit wakes it, and every poll interval for
// rows another process committed but did not move (it died, or does not run the queue).
func (q *Queue) moveLoop(ctx context.Context, e engine, kinds []string) {
	defer close(q.stopped)
	t := time.NewTicker(q.cfg.PollInterval)
	defer t.Stop()
	for {
		n, err := e.move(ctx, kinds, outboxBatch)
		if err != nil && ctx.Err() == nil {
			q.log.WarnContext(ctx, "move background jobs from the outbox", "err", err)
		}
		if err == nil && n == outboxBatch {
			continue // more are waiting
		}
		select {
		case <-ctx.Done():
			return
		case <-q.nudge:
		case <-t.C:
		}
	}
}

// decode rebuilds a registered kind's arguments from its outbox row.
func (q *Queue) decode(kind string, raw []byte) (Args, error) {
	q.mu.Lock()
	fn, ok := q.kinds[kind]
	q.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	return fn(raw)
}

// busyCounter counts the jobs this process is running (process_metrics' busy).
type busyCounter struct {
	river.MiddlewareDefaults
	n atomic.Int64
}

func (b *busyCounter) Work(ctx context.Context, _ *rivertype.JobRow, doInner func(context.Context) error) error {
	b.n.Add(1)
	defer b.n.Add(-1)
	return doInner(ctx)
}
