package events

import (
	"context"
	"log/slog"
	"time"

	"anvil/internal/jobs"
)

// PruneJob removes the events older than Retention; it runs daily (internal/service/jobs.go).
type PruneJob struct{}

// Kind names the job.
func (PruneJob) Kind() string { return "events_prune" }

// InsertOpts keep one pruning queued at a time.
func (PruneJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued(), MaxAttempts: 5}
}

// RunPrune works a PruneJob: what is older than Retention now goes.
func (s *Service) RunPrune(ctx context.Context, _ PruneJob) error {
	n, err := s.PruneOlderThan(ctx, time.Now().Add(-Retention))
	if n > 0 {
		slog.InfoContext(ctx, "events pruned", "count", n)
	}
	return err
}
