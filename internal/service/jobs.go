package service

import (
	"time"

	"anvil/internal/jobs"
	"anvil/internal/service/containerregistry"
	"anvil/internal/service/events"
	"anvil/internal/service/mergerequests/versions"
	"anvil/internal/service/repos"
	"anvil/internal/service/snippets"
	"anvil/internal/service/storagemoves"
	"anvil/internal/service/todos"
	"anvil/internal/service/webhooks"
)

// registerJobs gives every background job kind its handler, and schedules the periodic ones.
// A kind queued by a service must be registered here, or Enqueue fails.
func registerJobs(q *jobs.Queue, r *repos.Service, cr *containerregistry.Service, moves *storagemoves.Service, ev *events.Service, sn *snippets.Service, hooks *webhooks.Service, mrv *versions.Service, td *todos.Recorder) {
	jobs.Register(q, r.RunHousekeep)
	jobs.Register(q, r.RunRemoveRepository)
	jobs.Register(q, r.RunSweep)
	jobs.Periodic(q, time.Hour, repos.SweepJob{})
	jobs.Register(q, moves.RunJob)

	jobs.Register(q, cr.DeleteRepository)
	jobs.Register(q, cr.CleanupTags)
	jobs.Register(q, cr.DeleteImages)
	jobs.Register(q, cr.GarbageCollect)
	jobs.Periodic(q, 24*time.Hour, containerregistry.GarbageCollectJob{})

	jobs.Register(q, sn.RunRemoveRepository)

	jobs.Register(q, ev.RunPrune)
	jobs.Periodic(q, 24*time.Hour, events.PruneJob{})

	jobs.Register(q, hooks.RunDelivery)
	jobs.Register(q, hooks.RunPushHook)
	jobs.Register(q, hooks.RunPruneLogs)
	jobs.Register(q, mrv.RunRefresh)
	jobs.Register(q, mrv.RunTargetRefresh)
	jobs.Periodic(q, 24*time.Hour, webhooks.PruneLogsJob{})
	jobs.Register(q, td.RunEntityLeave)
	jobs.Register(q, td.RunConfidentialIssue)
	jobs.Register(q, hooks.RunAccessTokenExpiry)
	jobs.Periodic(q, 24*time.Hour, webhooks.AccessTokenExpiryJob{})
}
