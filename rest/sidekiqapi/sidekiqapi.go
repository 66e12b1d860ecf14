// Package sidekiqapi serves GitLab's Sidekiq metrics API (/sidekiq/queue_metrics,
// process_metrics, job_stats, compound_metrics) over Anvil's job queue (internal/jobs), for
// administrators.
package sidekiqapi

import (
	"anvil/internal/jobs"
	"anvil/rest/httpx"
	"anvil/rest/presenter"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct{ q *jobs.Queue }

// Register adds the routes: administrators only, as GitLab's authenticated_as_admin!.
func Register(t *route.Table) {
	h := &handlers{q: t.S.Jobs}
	for path, render := range map[string]func(*jobs.Metrics) map[string]any{
		"/sidekiq/queue_metrics":    presenter.SidekiqQueues,
		"/sidekiq/process_metrics":  presenter.SidekiqProcesses,
		"/sidekiq/job_stats":        presenter.SidekiqJobs,
		"/sidekiq/compound_metrics": presenter.SidekiqCompound,
	} {
		t.GET(path, h.metrics(render), route.AdminOnly)
	}
}

// metrics reads the queue's state and renders it as one of the four answers.
func (h *handlers) metrics(render func(*jobs.Metrics) map[string]any) httpx.Handler {
	return func(c *gin.Context) error {
		m, err := h.q.Metrics(c.Request.Context(), httpx.Actor(c))
		if err != nil {
			return err
		}
		return httpx.OK(c, render(m))
	}
}
