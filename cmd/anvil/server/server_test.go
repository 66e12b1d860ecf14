package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServer_healthChecks checks /-/health, /-/liveness and /-/readiness, which answers 503
// once the database is gone while the other two keep answering.
func TestServer_healthChecks(t *testing.T) {
	in := servertest.Start(t)

	r := in.Do(t, "GET", "/-/health", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "GitLab OK", string(r.Body))
	r = in.Do(t, "GET", "/-/liveness", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"status":"ok"}`, string(r.Body))
	r = in.Do(t, "GET", "/-/readiness", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"status":"ok","master_check":[{"status":"ok"}],"db_check":[{"status":"ok"}]}`, string(r.Body))
	for _, path := range []string{"/-/health", "/-/liveness", "/-/readiness"} {
		r := in.Do(t, "HEAD", path, "", nil)
		assert.Equal(t, 200, r.Status, "HEAD %s", path)
	}

	require.NoError(t, in.DB.SQL.Close())
	in.Logs.Reset()
	r = in.Do(t, "GET", "/-/readiness", "", nil)
	require.Equal(t, 503, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	// The driver's error is logged, never put in the body.
	assert.JSONEq(t, `{"status":"failed","db_check":[{"status":"failed","message":"unexpected Db check result"}]}`, string(r.Body))
	assert.Contains(t, strings.Join(in.Logs.Errors(), "\n"), "readiness: database check failed err=sql: database is closed")
	assert.Equal(t, 200, in.Do(t, "GET", "/-/liveness", "", nil).Status, "liveness does not depend on the database")
	assert.Equal(t, 200, in.Do(t, "GET", "/-/health", "", nil).Status)
}

// TestServer_metrics checks that /-/metrics counts requests and latencies by route template,
// never by raw path, so ids and unknown paths cannot grow the label set.
func TestServer_metrics(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "met", "public", nil)
	p := in.NewProject(t, g, "p", "public")

	require.Equal(t, 404, in.Do(t, "GET", "/projects/12345", servertest.RootToken, nil).Status)
	require.Equal(t, 404, in.Do(t, "GET", "/projects/12345", servertest.RootToken, nil).Status)
	require.Equal(t, 200, in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), servertest.RootToken, nil).Status)
	require.Equal(t, 200, in.Do(t, "GET", "/projects/met%2Fp", "", nil).Status)
	require.Equal(t, 404, in.Do(t, "GET", "/api/v4/no-such-route/67890", "", nil).Status)
	require.Equal(t, 404, in.Do(t, "GET", "/totally/elsewhere/24680", "", nil).Status)

	r := in.Do(t, "GET", "/-/metrics", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	text := string(r.Body)
	for _, want := range []string{
		"# TYPE anvil_http_requests_total counter",
		"# TYPE anvil_http_request_duration_seconds histogram",
		`anvil_http_requests_total{method="GET",route="/api/v4/projects/:id",status="404"} 2`,
		`anvil_http_requests_total{method="GET",route="/api/v4/projects/:id",status="200"} 2`,
		`anvil_http_requests_total{method="GET",route="unmatched",status="404"} 2`,
		`anvil_http_request_duration_seconds_count{method="GET",route="/api/v4/projects/:id"} 4`,
		`anvil_http_request_duration_seconds_bucket{method="GET",route="/api/v4/projects/:id",le="+Inf"} 4`,
		"go_goroutines", "process_cpu_seconds_total",
	} {
		assert.Contains(t, text, want)
	}
	for _, raw := range []string{"12345", "67890", "24680", "met%2Fp", "met/p", "no-such-route"} {
		assert.NotContains(t, text, raw, "raw path in a metric label")
	}
	// Every route label is a template or "unmatched".
	for _, m := range regexp.MustCompile(`route="([^"]*)"`).FindAllStringSubmatch(text, -1) {
		assert.True(t, m[1] == "unmatched" || strings.HasPrefix(m[1], "/"), m[1])
		assert.NotRegexp(t, `/\d+(/|$)`, m[1], "numeric segment in route label")
	}
}

// TestServer_gracefulShutdown starts ServeListener, holds a request in flight, cancels the
// context and checks that new connections are refused at once while the in-flight request still
// completes with 200 before ServeListener returns.
func TestServer_gracefulShutdown(t *testing.T) {
	in := servertest.Start(t)
	entered, release := make(chan struct{}), make(chan struct{})
	api := in.Server.Handler
	in.Server.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/test/slow" {
			close(entered)
			<-release
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, "finished")
			return
		}
		api.ServeHTTP(w, r)
	})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- in.Server.ServeListener(ctx, ln) }()

	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	resp, err := client.Get("http://" + addr + "/-/liveness")
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)

	type result struct {
		status int
		body   string
		err    error
	}
	slow := make(chan result, 1)
	go func() {
		resp, err := client.Get("http://" + addr + "/test/slow")
		if err != nil {
			slow <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		slow <- result{status: resp.StatusCode, body: string(b), err: err}
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("slow request never reached the handler")
	}

	cancel()
	refused := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			refused = true
			break
		}
		_ = conn.Close()
	}
	require.True(t, refused, "new connections still accepted after shutdown began")
	select {
	case err := <-served:
		t.Fatalf("ServeListener returned (%v) while a request was in flight", err)
	default:
	}

	close(release)
	res := <-slow
	require.NoError(t, res.err)
	assert.Equal(t, 200, res.status)
	assert.Equal(t, "finished", res.body)
	select {
	case err := <-served:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("ServeListener did not return after the in-flight request finished")
	}
}

// TestServer_metricsAllowlist checks that /-/metrics answers only the monitoring IP allowlist
// (loopback by default, as GitLab's monitoring whitelist) and 404 to everyone else, as GitLab
// does; the address is the connection's, whatever X-Forwarded-For claims.
func TestServer_metricsAllowlist(t *testing.T) {
	def := servertest.Start(t)
	r := def.Do(t, "GET", "/-/metrics", "", nil)
	assert.Equal(t, 200, r.Status, "loopback is allowed by default")

	elsewhere := servertest.Start(t, func(c *config.Config) {
		c.Monitoring.IPAllowlist = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	})
	r = elsewhere.Do(t, "GET", "/-/metrics", "", nil)
	assert.Equal(t, 404, r.Status)
	assert.Equal(t, "404 Not Found", string(r.Body))
	assert.NotContains(t, string(r.Body), "go_goroutines")
	req, err := http.NewRequest("GET", elsewhere.URL+"/-/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("X-Forwarded-For", "10.1.2.3")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode, "X-Forwarded-For does not pass the allowlist")
	assert.Equal(t, 200, elsewhere.Do(t, "GET", "/-/health", "", nil).Status, "the health check is not restricted")

	listed := servertest.Start(t, func(c *config.Config) {
		c.Monitoring.IPAllowlist = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}
	})
	r = listed.Do(t, "GET", "/-/metrics", "", nil)
	assert.Equal(t, 200, r.Status)
	assert.Contains(t, string(r.Body), "go_goroutines")
}
