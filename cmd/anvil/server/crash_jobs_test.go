package server_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/db"
	"anvil/internal/jobs"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJobs_surviveSIGKILL kills the server twice with SIGKILL while jobs are pending (in the
// outbox and in River's table) and running, queues more while it is down, and starts it again:
// every job runs to completion, none is lost, and the last server stops cleanly on SIGTERM.
func TestJobs_surviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the server three times")
	}
	ctx := context.Background()
	dataDir, markers := t.TempDir(), t.TempDir()
	dbURL := servertest.Database(t)
	env := crashEnv(t, dataDir, dbURL, markers)
	c := startChild(t, env)

	// The test queues jobs through a queue of its own on the same database, never started:
	// its jobs wait in the outbox for the server to move them.
	d, err := db.Open(dbURL, dataDir)
	require.NoError(t, err)
	defer d.Close()
	q := jobs.New(d, dbURL, jobs.Config{}, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	registerProbe(markers)(q)
	enqueue := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			require.NoError(t, q.Enqueue(ctx, probeJob{N: i, SleepMS: 400}))
		}
	}
	const total = 60

	enqueue(0, 30)
	waitMarkers(t, markers, 3)
	c.kill()
	states := jobStates(t, d)
	t.Logf("first kill: %v", states)
	assert.Positive(t, states["running"], "jobs were running when the server died")
	assert.Positive(t, states["available"]+states["outbox"], "jobs were pending when the server died")
	enqueue(30, 45) // queued while the server is down
	time.Sleep(3500 * time.Millisecond)

	c = startChild(t, env)
	waitMarkers(t, markers, countMarkers(t, markers)+3)
	c.kill()
	t.Logf("second kill: %v", jobStates(t, d))
	enqueue(45, total)
	time.Sleep(3500 * time.Millisecond)

	c = startChild(t, env)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		states = jobStates(t, d)
		if countMarkers(t, markers) == total && states["completed"] == total && len(states) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs not all completed after restart: %d of %d markers; states %v", countMarkers(t, markers), total, states)
		}
		time.Sleep(100 * time.Millisecond)
	}
	runs, err := os.ReadFile(filepath.Join(markers, "runs.log"))
	require.NoError(t, err)
	t.Logf("%d runs for %d jobs (a job killed after its work but before it was marked done runs again)",
		len(strings.Fields(string(runs))), total)
	require.NoError(t, c.stop(t), "the server stops cleanly on SIGTERM")
}

// waitMarkers waits until at least n probe jobs have finished.
func waitMarkers(t *testing.T, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for countMarkers(t, dir) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d jobs finished in 2 minutes", countMarkers(t, dir), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countMarkers counts the probe jobs that have finished.
func countMarkers(t *testing.T, dir string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "done-*"))
	require.NoError(t, err)
	return len(m)
}

// jobStates counts the probe jobs by River state, and those still in the outbox.
func jobStates(t *testing.T, d *db.DB) map[string]int {
	t.Helper()
	ctx := context.Background()
	out := map[string]int{}
	rows, err := d.SQL.QueryContext(ctx, "SELECT state, count(*) FROM river_job WHERE kind = 'crash_test_probe' GROUP BY state")
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var (
			state string
			n     int
		)
		require.NoError(t, rows.Scan(&state, &n))
		out[state] = n
	}
	require.NoError(t, rows.Err())
	var outbox int
	require.NoError(t, d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM job_outbox WHERE kind = 'crash_test_probe'").Scan(&outbox))
	if outbox > 0 {
		out["outbox"] = outbox
	}
	return out
}
