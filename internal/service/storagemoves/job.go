package storagemoves

import (
	"context"

	"anvil/internal/jobs"
)

// MoveJob runs one repository storage move (Service.Run) on the durable job queue.
type MoveJob struct {
	MoveID int `json:"move_id"`
}

// Kind names the job.
func (MoveJob) Kind() string { return "project_repository_storage_move" }

// InsertOpts make a move's job unique while one is queued or running.
func (MoveJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued()}
}

// JobScheduler schedules moves as jobs, in the transaction that scheduled them: a move runs
// once that transaction commits, and again after a crash (Run resumes from the recorded state).
type JobScheduler struct{ Jobs jobs.Enqueuer }

// ScheduleStorageMove implements Scheduler.
func (q JobScheduler) ScheduleStorageMove(ctx context.Context, moveID int) error {
	return q.Jobs.Enqueue(ctx, MoveJob{MoveID: moveID})
}

// RunJob works a MoveJob.
func (s *Service) RunJob(ctx context.Context, j MoveJob) error { return s.Run(ctx, j.MoveID) }
