package servertest

import (
	"context"
	"testing"
	"time"
)

// WaitJobs waits until every background job queued so far has finished: the outbox is empty
// and no job is ready, running or waiting for a retry. It fails tb after 60 seconds, naming
// what is still waiting.
func (in *Instance) WaitJobs(tb testing.TB) {
	tb.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		outbox, waiting, err := in.pendingJobs(context.Background())
		if err != nil {
			tb.Fatalf("read job queue: %v", err)
		}
		if outbox == 0 && waiting == "" {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("background jobs still waiting after 60s: %d in the outbox; %s", outbox, waiting)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pendingJobs counts the outbox and lists River's unfinished jobs as "kind:state" words.
func (in *Instance) pendingJobs(ctx context.Context) (int, string, error) {
	var outbox int
	if err := in.DB.SQL.QueryRowContext(ctx, "SELECT count(*) FROM job_outbox").Scan(&outbox); err != nil {
		return 0, "", err
	}
	rows, err := in.DB.SQL.QueryContext(ctx, "SELECT kind, state FROM river_job WHERE state IN ('available', 'running', 'pending', 'retryable') ORDER BY id")
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	waiting := ""
	for rows.Next() {
		var kind, state string
		if err := rows.Scan(&kind, &state); err != nil {
			return 0, "", err
		}
		waiting += kind + ":" + state + " "
	}
	return outbox, waiting, rows.Err()
}
