// Package servertest starts a whole Anvil server in-process for tests and benchmarks: a fresh
// data directory and a fresh database (SQLite, or a new PostgreSQL database when
// ANVIL_TEST_DATABASE_URL is set), with root's token ready.
package servertest

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server"
	"anvil/internal/config"

	_ "github.com/lib/pq" // PostgreSQL driver for creating test databases
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// RootToken is root's token in every test server.
const RootToken = "glpat-test-root-token-0123456789"

// Instance is a running test server.
type Instance struct {
	*server.Server
	HTTP *httptest.Server
	URL  string // base URL, e.g. http://127.0.0.1:1234
	// Logs holds what the server logged at WARN and above.
	Logs *Logs
}

// Start starts a server for tb and stops it when tb ends. Each configure function may adjust the
// configuration (an external URL, say) before the server is built.
func Start(tb testing.TB, configure ...func(*config.Config)) *Instance {
	tb.Helper()
	return StartWith(tb, server.Options{BcryptCost: 4}, configure...)
}

// StartWith is Start with server options of the test's own (a password hasher that counts its
// comparisons, say).
func StartWith(tb testing.TB, opts server.Options, configure ...func(*config.Config)) *Instance {
	tb.Helper()
	dir := tb.TempDir()
	cfg := config.Config{DataDir: dir, InitialRootToken: RootToken, InitialRootPassword: "Zq4-ember-Lt8w"}
	// A copy of a migrated template (template.go): the server skips its migrations.
	dbURL, migrated := migratedDatabase(tb, dir)
	cfg.DatabaseURL = dbURL
	ts := httptest.NewUnstartedServer(nil)
	cfg.Listen = ts.Listener.Addr().String()
	cfg.ExternalURL = "http://" + cfg.Listen
	// Jobs are picked up quickly: on SQLite, where the queue polls, a test waits for them.
	cfg.Jobs.PollInterval = 50 * time.Millisecond
	for _, fn := range configure {
		fn(&cfg)
	}
	// A configuration that moved the database or the data directory gets an empty one, which
	// the server migrates.
	opts.Migrated = opts.Migrated || (migrated && cfg.DatabaseURL == dbURL && cfg.DataDir == dir)
	if err := cfg.Normalize(); err != nil {
		tb.Fatal(err)
	}
	level := slog.LevelWarn
	if os.Getenv("ANVIL_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	logs := &Logs{}
	log := slog.New(recordingHandler{next: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}), logs: logs})
	srv, err := server.New(context.Background(), cfg, log, opts)
	if err != nil {
		tb.Fatalf("start server: %v", err)
	}
	ts.Config.Handler = srv.Handler
	if err := srv.StartJobs(context.Background()); err != nil {
		_ = srv.Close()
		tb.Fatalf("start jobs: %v", err)
	}
	ts.Start()
	tb.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	return &Instance{Server: srv, HTTP: ts, URL: ts.URL, Logs: logs}
}

// Database returns the database URL for a fresh test database: empty (SQLite in the data
// directory) unless ANVIL_TEST_DATABASE_URL names a PostgreSQL server, on which a new database
// is created and dropped when tb ends.
func Database(tb testing.TB) string {
	tb.Helper()
	if pg := os.Getenv("ANVIL_TEST_DATABASE_URL"); pg != "" {
		return freshPostgres(tb, pg)
	}
	return ""
}

// freshPostgres creates a uniquely named database on the server of base and drops it once tb
// has ended (in the background: dropdb.go).
func freshPostgres(tb testing.TB, base string) string {
	tb.Helper()
	admin, err := sql.Open("postgres", base)
	if err != nil {
		tb.Fatal(err)
	}
	dropLeftovers(tb, admin, base)
	name := testDBName()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() { dropInBackground(admin, name) })
	return databaseURL(tb, base, name)
}

// databaseURL is base with its database replaced by name.
func databaseURL(tb testing.TB, base, name string) string {
	tb.Helper()
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Client returns a client-go client authenticated with token (empty for anonymous).
func (in *Instance) Client(tb testing.TB, token string) *gitlab.Client {
	tb.Helper()
	opts := []gitlab.ClientOptionFunc{gitlab.WithBaseURL(in.URL + "/api/v4"), gitlab.WithCustomRetryMax(0)}
	var (
		c   *gitlab.Client
		err error
	)
	if token == "" {
		c, err = gitlab.NewClient("", opts...)
	} else {
		c, err = gitlab.NewClient(token, opts...)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Response is a raw HTTP response with its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a raw request to the API: path is relative to /api/v4 unless it starts with "/-/",
// "/api/" or a scheme. body may be nil, a string (sent as JSON) or url.Values (sent as a form).
func (in *Instance) Do(tb testing.TB, method, path, token string, body any) *Response {
	tb.Helper()
	target := path
	if !strings.HasPrefix(path, "http") && !strings.HasPrefix(path, "/-/") && !strings.HasPrefix(path, "/api/") {
		target = "/api/v4" + path
	}
	if !strings.HasPrefix(target, "http") {
		target = in.URL + target
	}
	var (
		r  io.Reader
		ct string
	)
	switch b := body.(type) {
	case nil:
	case string:
		r, ct = strings.NewReader(b), "application/json"
	case url.Values:
		r, ct = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		tb.Fatalf("unsupported body type %T", body)
	}
	req, err := http.NewRequest(method, target, r)
	if err != nil {
		tb.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if token != "" {
		req.Header.Set("PRIVATE-TOKEN", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// String returns the body as text, for assertion messages.
func (r *Response) String() string { return fmt.Sprintf("%d %s", r.Status, r.Body) }
