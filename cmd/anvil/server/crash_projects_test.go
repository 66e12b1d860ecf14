package server_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/db"

	"github.com/stretchr/testify/require"
)

// TestProjects_surviveSIGKILL kills the server with SIGKILL three times during bursts of
// project creations (with a README) and deletions, then restarts it: once the sweep and the
// queued removals have run, every project has a usable repository, every repository on disk
// belongs to a project, and nothing half-made or half-removed is left.
func TestProjects_surviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills the server four times")
	}
	ctx := context.Background()
	dataDir, markers := t.TempDir(), t.TempDir()
	dbURL := servertest.Database(t)
	env := append(crashEnv(t, dataDir, dbURL, markers), "ANVIL_REPOSITORY_SWEEP_GRACE=2s")
	const token = "glpat-crash-test-root-token-0123"

	var created, deleted atomic.Int64
	seq := atomic.Int64{}
	for round := 0; round < 3; round++ {
		c := startChild(t, env)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				client := &http.Client{Timeout: 30 * time.Second}
				for {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("p%d", seq.Add(1))
					body := `{"name":"` + name + `","initialize_with_readme":true}`
					req, _ := http.NewRequest(http.MethodPost, c.url+"/api/v4/projects", strings.NewReader(body))
					req.Header.Set("PRIVATE-TOKEN", token)
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err != nil {
						continue // the server died under the request
					}
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusCreated {
						continue
					}
					created.Add(1)
					if rand.IntN(2) == 0 {
						req, _ := http.NewRequest(http.MethodDelete, c.url+"/api/v4/projects/root%2F"+name, nil)
						req.Header.Set("PRIVATE-TOKEN", token)
						if resp, err := client.Do(req); err == nil {
							_ = resp.Body.Close()
							if resp.StatusCode == http.StatusAccepted {
								deleted.Add(1)
							}
						}
					}
				}
			}()
		}
		time.Sleep(time.Duration(1500+rand.IntN(1500)) * time.Millisecond)
		c.kill()
		close(stop)
		wg.Wait()
	}
	t.Logf("%d projects created, %d deleted, across 3 kills", created.Load(), deleted.Load())
	require.Positive(t, created.Load())

	// Leftovers are older than the sweep's grace period when the server starts again.
	time.Sleep(3 * time.Second)
	c := startChild(t, env)
	d, err := db.Open(dbURL, dataDir)
	require.NoError(t, err)
	defer d.Close()
	root := filepath.Join(dataDir, "repositories")
	deadline := time.Now().Add(3 * time.Minute)
	for {
		problems := crashProblems(t, ctx, d, root)
		if len(problems) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after restart and sweep:\n%s", strings.Join(problems, "\n"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	require.NoError(t, c.stop(t))
}

// crashProblems lists what is wrong with projects and repositories: hidden (half-created)
// projects, projects without a usable repository, repositories without a project, leftovers
// of removals and creations, and jobs not yet done.
func crashProblems(t *testing.T, ctx context.Context, d *db.DB, root string) []string {
	t.Helper()
	var problems []string
	ps, err := d.Client.Project.Query().All(ctx)
	require.NoError(t, err)
	named := map[string]bool{}
	for _, p := range ps {
		if p.PendingDelete {
			problems = append(problems, fmt.Sprintf("project %d is still hidden (half-created)", p.ID))
			continue
		}
		if p.DiskPath == "" {
			problems = append(problems, fmt.Sprintf("project %d has no repository", p.ID))
			continue
		}
		named[p.DiskPath] = true
		out, err := exec.Command("git", "--git-dir", filepath.Join(root, p.DiskPath), "rev-parse", "--verify", "HEAD^{commit}").CombinedOutput()
		if err != nil {
			problems = append(problems, fmt.Sprintf("project %d: repository not usable: %v %s", p.ID, err, out))
		}
	}
	err = filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil || !e.IsDir() || path == root {
			return err
		}
		name := e.Name()
		if strings.Contains(name, "+deleted") || strings.Contains(name, "+creating+") {
			problems = append(problems, "leftover "+path)
			return filepath.SkipDir
		}
		if strings.HasSuffix(name, ".git") {
			rel, _ := filepath.Rel(root, path)
			if !named[filepath.ToSlash(rel)] {
				problems = append(problems, "repository without a project: "+rel)
			}
			return filepath.SkipDir
		}
		return nil
	})
	require.NoError(t, err)
	var outbox, waiting int
	require.NoError(t, d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM job_outbox").Scan(&outbox))
	require.NoError(t, d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM river_job WHERE state IN ('available', 'running', 'pending', 'retryable', 'scheduled')").Scan(&waiting))
	if outbox+waiting > 0 {
		problems = append(problems, fmt.Sprintf("%d jobs in the outbox, %d waiting in the queue", outbox, waiting))
	}
	return problems
}
