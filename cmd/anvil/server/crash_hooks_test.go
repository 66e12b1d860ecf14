package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/db"
	"anvil/internal/jobs"
	"anvil/internal/service/webhooks"

	"github.com/stretchr/testify/require"
)

// TestHooks_surviveSIGKILL kills the server with SIGKILL while 200 hook deliveries are pending
// (in the outbox, queued and running) and starts it again: the receiver sees every one of the
// 200 Idempotency-Keys at least once.
func TestHooks_surviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the server")
	}
	ctx := context.Background()
	dataDir, markers := t.TempDir(), t.TempDir()
	dbURL := servertest.Database(t)
	env := crashEnv(t, dataDir, dbURL, markers)

	var (
		mu   sync.Mutex
		seen = map[string]int{}
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(30 * time.Millisecond) // slow enough for deliveries to be pending at the kill
		mu.Lock()
		seen[r.Header.Get("Idempotency-Key")]++
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer rcv.Close()
	distinct := func() int { mu.Lock(); defer mu.Unlock(); return len(seen) }

	c := startChild(t, env)
	d, err := db.Open(dbURL, dataDir)
	require.NoError(t, err)
	defer d.Close()
	admin := func(method, path, body string) int {
		req, err := http.NewRequest(method, c.url+"/api/v4"+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("PRIVATE-TOKEN", "glpat-crash-test-root-token-0123")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	// The receiver is on loopback: the instance allows it (through the settings API, so that
	// the server's settings cache sees it at once).
	require.Equal(t, http.StatusOK, admin("PUT", "/application/settings", `{"outbound_local_requests_whitelist":["127.0.0.1"]}`))
	require.Equal(t, http.StatusCreated, admin("POST", "/hooks", `{"url":"`+rcv.URL+`/sys"}`))
	hook, err := d.Client.WebHook.Query().Only(ctx)
	require.NoError(t, err)

	// The deliveries are queued as the services queue them (the outbox, in a transaction) by
	// a queue of the test's own that never runs them.
	q := jobs.New(d, dbURL, jobs.Config{}, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	jobs.Register(q, func(context.Context, webhooks.DeliveryJob) error { return nil })
	const total = 200
	for i := 0; i < total; i++ {
		require.NoError(t, q.Enqueue(ctx, webhooks.DeliveryJob{HookID: hook.ID, Trigger: "system_hooks",
			Header: "System Hook", Payload: []byte(fmt.Sprintf(`{"event_name":"crash_test","n":%d}`, i)),
			EventUUID: webhooks.NewUUID(), IdempotencyKey: fmt.Sprintf("crash-%03d", i)}))
	}
	deadline := time.Now().Add(2 * time.Minute)
	for distinct() < 10 {
		require.True(t, time.Now().Before(deadline), "no deliveries started")
		time.Sleep(5 * time.Millisecond)
	}
	c.kill()
	atKill := distinct()
	t.Logf("killed after %d of %d deliveries", atKill, total)
	require.Less(t, atKill, total, "deliveries were pending when the server died")

	c = startChild(t, env)
	deadline = time.Now().Add(3 * time.Minute)
	for distinct() < total {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d deliveries arrived after the restart", distinct(), total)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	for i := 0; i < total; i++ {
		require.GreaterOrEqual(t, seen[fmt.Sprintf("crash-%03d", i)], 1)
	}
	again := 0
	for _, n := range seen {
		again += n - 1
	}
	mu.Unlock()
	t.Logf("%d deliveries for %d events (%d delivered again after the kill)", total+again, total, again)
	require.NoError(t, c.stop(t), "the server stops cleanly on SIGTERM")
}
