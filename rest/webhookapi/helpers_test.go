package webhookapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/service/webhooks"

	"github.com/stretchr/testify/require"
)

// delivery is one request a receiver got.
type delivery struct {
	Header http.Header
	Body   map[string]any
}

// receiver is a loopback HTTP server that records hook deliveries and answers status (200
// unless changed).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	status atomic.Int32
}

func newReceiver(t testing.TB) *receiver {
	t.Helper()
	r := &receiver{}
	r.status.Store(200)
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		r.mu.Lock()
		r.got = append(r.got, delivery{Header: req.Header.Clone(), Body: body})
		r.mu.Unlock()
		w.Header().Set("X-Receiver", "yes")
		w.WriteHeader(int(r.status.Load()))
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(r.Close)
	return r
}

// deliveries returns what the receiver got so far.
func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery{}, r.got...)
}

// wait waits until the receiver got n deliveries.
func (r *receiver) wait(t *testing.T, n int) []delivery {
	t.Helper()
	require.Eventually(t, func() bool { return len(r.deliveries()) >= n }, 30*time.Second, 10*time.Millisecond,
		"receiver got %d of %d deliveries", len(r.deliveries()), n)
	return r.deliveries()
}

// allowLoopback lets hooks reach 127.0.0.1 (the receiver) through the allowlist.
func allowLoopback(t *testing.T, in *servertest.Instance) {
	t.Helper()
	require.NoError(t, in.Services.Settings.Set(context.Background(), "outbound_local_requests_whitelist", []string{"127.0.0.1"}))
}

// webhooksTarget is a project's events target.
func webhooksTarget(p *ent.Project) webhooks.Target { return webhooks.Target{Project: p} }

// pushEvent is a push to main.
func pushEvent() webhooks.Event {
	ev := webhooks.PushEvent
	ev.Branch = "main"
	return ev
}
