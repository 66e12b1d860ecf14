package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"time"

	"anvil/internal/apperr"
	"anvil/internal/authz"

	"entgo.io/ent/dialect"
)

// Metrics is the queue's state as GitLab's Sidekiq metrics API reports it (administrators only).
type Metrics struct {
	Queues    []QueueMetric
	Jobs      JobCounts
	Processes []Process
}

// QueueMetric is one queue's backlog (jobs ready to run) and latency (how long the oldest of
// them has waited).
type QueueMetric struct {
	Name    string
	Backlog int
	Latency time.Duration
}

// JobCounts are the jobs River keeps: Processed the completed ones (kept 24 hours), Failed
// those whose last run failed (waiting for a retry, or discarded), Enqueued those waiting to
// run (in the outbox, ready, scheduled, or waiting for a retry), Dead those discarded after
// their last attempt.
type JobCounts struct {
	Processed, Failed, Enqueued, Dead int
}

// Process is this server process as a job worker.
type Process struct {
	Hostname    string
	PID         int
	StartedAt   time.Time
	Queues      []string
	Concurrency int
	Busy        int
}

// Metrics reads the queue's state for actor, who must be an administrator.
func (q *Queue) Metrics(ctx context.Context, actor *authz.Actor) (*Metrics, error) {
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	if !actor.IsAdmin() {
		return nil, apperr.Forbidden("")
	}
	m := &Metrics{}
	byQueue := map[string]*QueueMetric{"default": {Name: "default"}}
	rows, err := q.db.SQL.QueryContext(ctx, "SELECT queue, state, count(*) FROM river_job GROUP BY queue, state")
	if err != nil {
		return nil, fmt.Errorf("job metrics: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			queue, state string
			n            int
		)
		if err := rows.Scan(&queue, &state, &n); err != nil {
			return nil, err
		}
		if byQueue[queue] == nil {
			byQueue[queue] = &QueueMetric{Name: queue}
		}
		switch state {
		case "available":
			byQueue[queue].Backlog += n
			m.Jobs.Enqueued += n
		case "scheduled", "pending":
			m.Jobs.Enqueued += n
		case "retryable":
			m.Jobs.Enqueued += n
			m.Jobs.Failed += n
		case "discarded":
			m.Jobs.Failed += n
			m.Jobs.Dead += n
		case "completed":
			m.Jobs.Processed += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var outbox int
	if err := q.db.SQL.QueryRowContext(ctx, "SELECT count(*) FROM job_outbox").Scan(&outbox); err != nil {
		return nil, fmt.Errorf("job metrics: %w", err)
	}
	m.Jobs.Enqueued += outbox
	byQueue["default"].Backlog += outbox
	for _, qm := range byQueue {
		if qm.Backlog > 0 {
			if qm.Latency, err = q.latency(ctx, qm.Name); err != nil {
				return nil, err
			}
		}
		m.Queues = append(m.Queues, *qm)
	}
	sort.Slice(m.Queues, func(i, j int) bool { return m.Queues[i].Name < m.Queues[j].Name })
	if p, ok := q.process(); ok {
		m.Processes = append(m.Processes, p)
	}
	return m, nil
}

// latency is how long the oldest job ready to run in queue has waited (outbox rows count for
// the default queue).
func (q *Queue) latency(ctx context.Context, queue string) (time.Duration, error) {
	mark := "$1"
	if q.db.Dialect == dialect.SQLite {
		mark = "?"
	}
	var oldest time.Time
	for _, query := range []string{
		"SELECT scheduled_at FROM river_job WHERE state = 'available' AND queue = " + mark + " ORDER BY scheduled_at LIMIT 1",
		"SELECT created_at FROM job_outbox WHERE 'default' = " + mark + " ORDER BY id LIMIT 1",
	} {
		var v any
		err := q.db.SQL.QueryRowContext(ctx, query, queue).Scan(&v)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("job latency: %w", err)
		}
		if t, ok := asTime(v); ok && (oldest.IsZero() || t.Before(oldest)) {
			oldest = t
		}
	}
	if oldest.IsZero() {
		return 0, nil
	}
	return max(time.Since(oldest), 0), nil
}

// asTime reads a timestamp column: a time on PostgreSQL and for SQLite's declared timestamp
// columns, else SQLite's text form.
func asTime(v any) (time.Time, bool) {
	switch t := v.(type) {
	case time.Time:
		return t, true
	case string:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999"} {
			if p, err := time.Parse(layout, t); err == nil {
				return p, true
			}
		}
	}
	return time.Time{}, false
}

// process describes this process once its queue runs.
func (q *Queue) process() (Process, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.engine == nil || q.stop == nil {
		return Process{}, false
	}
	host, _ := os.Hostname()
	return Process{
		Hostname: host, PID: os.Getpid(), StartedAt: q.startedAt, Queues: []string{"default"},
		Concurrency: q.cfg.Workers, Busy: int(q.busy.n.Load()),
	}, true
}
