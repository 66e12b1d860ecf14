package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"anvil/cmd/anvil/server"
	"anvil/internal/config"
	"anvil/internal/gitserver"
	"anvil/internal/jobs"
)

// The crash tests run the server as a child process (this test binary, re-executed with
// crashChildEnv set) so that they can kill it with SIGKILL and start it again on the same data
// directory and database.
const crashChildEnv = "ANVIL_CRASH_TEST_CHILD"

// TestMain runs the crash tests' child server when asked to, and the tests otherwise.
func TestMain(m *testing.M) {
	gitserver.RunHookIfRequested()
	if os.Getenv(crashChildEnv) != "" {
		if err := runCrashChild(); err != nil {
			fmt.Fprintln(os.Stderr, "crash test child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// probeJob is the crash test's job kind: it takes a while, then leaves a marker file named
// after its number (and a line per run in runs.log).
type probeJob struct {
	N       int `json:"n"`
	SleepMS int `json:"sleep_ms"`
}

func (probeJob) Kind() string { return "crash_test_probe" }

// registerProbe registers probeJob, writing markers under dir.
func registerProbe(dir string) func(q *jobs.Queue) {
	return func(q *jobs.Queue) {
		jobs.Register(q, func(ctx context.Context, j probeJob) error {
			select {
			case <-time.After(time.Duration(j.SleepMS) * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
			f, err := os.OpenFile(filepath.Join(dir, "runs.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return err
			}
			_, _ = fmt.Fprintln(f, j.N)
			_ = f.Close()
			return os.WriteFile(filepath.Join(dir, "done-"+strconv.Itoa(j.N)), nil, 0o600)
		})
	}
}

// runCrashChild is the child: the whole server from the environment, served until SIGTERM.
func runCrashChild() error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	srv, err := server.New(ctx, cfg, log, server.Options{BcryptCost: 4, Jobs: registerProbe(os.Getenv("ANVIL_CRASH_MARKERS"))})
	if err != nil {
		return err
	}
	defer srv.Close()
	return srv.Serve(ctx)
}

// child is one run of the server in a child process.
type child struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// crashEnv is the child's environment: one data directory, database and port for all runs.
func crashEnv(t *testing.T, dataDir, dbURL, markers string) []string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return append(os.Environ(),
		crashChildEnv+"=1",
		"ANVIL_LISTEN="+addr,
		"ANVIL_DATA_DIR="+dataDir,
		"ANVIL_DATABASE_URL="+dbURL,
		"ANVIL_INITIAL_ROOT_TOKEN=glpat-crash-test-root-token-0123",
		"ANVIL_INITIAL_ROOT_PASSWORD=Zq4-ember-Lt8w",
		"ANVIL_LOG_LEVEL=warn",
		"ANVIL_CRASH_MARKERS="+markers,
		// Jobs whose process was killed run again 3 s after they started.
		"ANVIL_JOBS_POLL_INTERVAL=100ms",
		"ANVIL_JOBS_TIMEOUT=2s",
		"ANVIL_JOBS_RESCUE_AFTER=3s",
	)
}

// startChild starts the server with env and waits until it is ready.
func startChild(t *testing.T, env []string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait() }()
	for _, kv := range env {
		if v, ok := cutPrefix(kv, "ANVIL_LISTEN="); ok {
			c.url = "http://" + v
		}
	}
	t.Cleanup(func() { c.kill() })
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-c.done:
			t.Fatalf("the server exited while starting: %v", err)
		default:
		}
		resp, err := http.Get(c.url + "/-/readiness")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the server did not become ready in 60 s")
	return nil
}

// kill ends the child with SIGKILL (a power cut, as far as the database and disk can tell).
func (c *child) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
	c.done <- nil // later kills return at once
}

// stop ends the child with SIGTERM and returns its exit error (nil: a clean shutdown).
func (c *child) stop(t *testing.T) error {
	t.Helper()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not stop in 60 s after SIGTERM")
		return nil
	}
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return "", false
}
