package servertest

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"
)

// waitJobsPoll is how often WaitJobs reads the queue: one cheap query, well below the queue's
// own poll interval in tests (Start), so a test waits little past its last job.
const waitJobsPoll = 10 * time.Millisecond

// WaitJobs waits until every background job queued so far has finished: the outbox is empty
// and no job is ready, running, waiting for a retry, or scheduled for a time already past. It
// fails tb after 60 seconds, naming what is still waiting.
//
// A job scheduled for a time still to come is not waited for: nothing a test does can bring
// that time nearer (River's periodic jobs are queued at their run time, an hour or a day
// apart). Once due it is, until River's scheduler has made it available and it has run. A job
// waiting for a retry is waited for even before its retry is due: it is work the test expects
// done, and a job that keeps failing then fails the test under its own name rather than
// through an assertion about its effects.
func (in *Instance) WaitJobs(tb testing.TB) {
	tb.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		waiting, err := in.pendingJobs(context.Background())
		if err != nil {
			tb.Fatalf("read job queue: %v", err)
		}
		if waiting == "" {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("background jobs still waiting after 60s: %s", waiting)
		}
		time.Sleep(waitJobsPoll)
	}
}

// pendingJobs lists the outbox rows and River's unfinished jobs as "kind:state" words.
//
// It reads both tables in one statement, so in one snapshot: read one after the other, a job
// that queues another (its transaction commits the outbox row, then River marks it completed)
// could be missed between the two reads, the outbox read before that commit and River's table
// after the completion.
func (in *Instance) pendingJobs(ctx context.Context) (string, error) {
	now := "now()"
	if in.DB.Dialect == dialect.SQLite {
		now = "datetime('now', 'subsec')" // as River's SQLite driver compares scheduled_at
	}
	rows, err := in.DB.SQL.QueryContext(ctx,
		"SELECT kind, 'outbox' FROM job_outbox"+
			" UNION ALL SELECT kind, CAST(state AS TEXT) FROM river_job"+
			" WHERE state IN ('available', 'running', 'pending', 'retryable')"+
			" OR (state = 'scheduled' AND scheduled_at <= "+now+")")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	waiting := ""
	for rows.Next() {
		var kind, state string
		if err := rows.Scan(&kind, &state); err != nil {
			return "", err
		}
		waiting += kind + ":" + state + " "
	}
	return waiting, rows.Err()
}
