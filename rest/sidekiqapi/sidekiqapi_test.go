package sidekiqapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSidekiqMetrics: administrators read the job queue's state in GitLab's Sidekiq metrics
// shapes; other users get 403 and anonymous callers 401. A project deletion's repository
// removal is counted once it has run.
func TestSidekiqMetrics(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	_, userTok := in.NewUser(t, "plain")
	root, err := in.Services.Users.FindByRef(ctx, "root")
	require.NoError(t, err)
	path := "gone"
	_, _, err = in.Services.Projects.Create(ctx, authz.System(root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path}, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	r := in.Do(t, http.MethodDelete, "/projects/root%2Fgone", servertest.RootToken, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	in.WaitJobs(t)

	for _, path := range []string{"/sidekiq/queue_metrics", "/sidekiq/process_metrics", "/sidekiq/job_stats", "/sidekiq/compound_metrics"} {
		assert.Equal(t, http.StatusUnauthorized, in.Do(t, http.MethodGet, path, "", nil).Status, path)
		r := in.Do(t, http.MethodGet, path, userTok, nil)
		assert.Equal(t, http.StatusForbidden, r.Status, path)
		assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body), path)
	}

	// The periodic jobs that run at start (the sweep, the registry's garbage collection, events
	// pruning) are queued once a replica leads, which may come after WaitJobs: wait for all four.
	var stats struct {
		Jobs map[string]int `json:"jobs"`
	}
	require.Eventually(t, func() bool {
		r = in.Do(t, http.MethodGet, "/sidekiq/job_stats", servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		require.NoError(t, json.Unmarshal(r.Body, &stats))
		return stats.Jobs["processed"] >= 4 && stats.Jobs["enqueued"] == 0
	}, 60*time.Second, 50*time.Millisecond, "the start's jobs run")
	assert.ElementsMatch(t, []string{"processed", "failed", "enqueued", "dead"}, keys(stats.Jobs))
	assert.GreaterOrEqual(t, stats.Jobs["processed"], 4, r.String())
	assert.Zero(t, stats.Jobs["enqueued"], r.String())
	assert.Zero(t, stats.Jobs["failed"], r.String())
	assert.Zero(t, stats.Jobs["dead"], r.String())

	r = in.Do(t, http.MethodGet, "/sidekiq/queue_metrics", servertest.RootToken, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.JSONEq(t, `{"queues":{"default":{"backlog":0,"latency":0}}}`, string(r.Body))

	r = in.Do(t, http.MethodGet, "/sidekiq/process_metrics", servertest.RootToken, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var procs struct {
		Processes []map[string]any `json:"processes"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &procs))
	require.Len(t, procs.Processes, 1)
	p := procs.Processes[0]
	host, _ := os.Hostname()
	assert.Equal(t, host, p["hostname"])
	assert.Equal(t, float64(os.Getpid()), p["pid"])
	assert.Equal(t, []any{"default"}, p["queues"])
	assert.Equal(t, []any{}, p["labels"])
	assert.Equal(t, float64(8), p["concurrency"])
	assert.Equal(t, float64(0), p["busy"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT`, p["started_at"])

	r = in.Do(t, http.MethodGet, "/sidekiq/compound_metrics", servertest.RootToken, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var compound map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(r.Body, &compound))
	assert.ElementsMatch(t, []string{"queues", "processes", "jobs"}, keys(compound))
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
