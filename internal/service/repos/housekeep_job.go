package repos

import (
	"context"

	"anvil/ent"
	"anvil/ent/projectstatistics"
	"anvil/internal/db"
	"anvil/internal/jobs"
)

// A job kind is a struct of its arguments (JSON, stored with the job: never rename the kind or
// a field), registered with its handler in internal/service/service.go:
//
//	jobs.Register(q, r.RunHousekeep)
//
// and queued inside the transaction of the change that causes it (s.jobs.Enqueue). The
// handler reads its subject afresh and is idempotent: a job may run again after a crash.

// HousekeepJob optimizes a project's repository for reads (Housekeep).
type HousekeepJob struct {
	ProjectID int `json:"project_id"`
}

// Kind names the job.
func (HousekeepJob) Kind() string { return "repository_housekeeping" }

// InsertOpts make housekeeping unique per project while one is queued or running: pushes in
// between ask for nothing more.
func (HousekeepJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued(), MaxAttempts: 5}
}

// RunHousekeep works a HousekeepJob. A project deleted while its housekeeping ran needs no
// retry.
func (s *Service) RunHousekeep(ctx context.Context, j HousekeepJob) error {
	err := s.Housekeep(ctx, j.ProjectID)
	if err != nil {
		p, gerr := db.ClientFrom(ctx, s.client).Project.Get(ctx, j.ProjectID)
		if ent.IsNotFound(gerr) || (gerr == nil && (p.PendingDelete || !s.Exists(p))) {
			return nil
		}
	}
	return err
}

// housekeepingPeriod is how many pushes apart housekeeping runs: GitLab's default
// housekeeping_optimize_repository_period.
const housekeepingPeriod = 10

// countPush counts a push into projectID (GitLab's pushes_since_gc) inside the push's
// transaction c and queues housekeeping on the first push and every housekeepingPeriod-th after
// it, as GitLab's housekeeping service does.
func (s *Service) countPush(ctx context.Context, c *ent.Client, projectID int) error {
	if err := c.ProjectStatistics.Create().SetProjectID(projectID).SetPushesSinceGc(1).
		OnConflictColumns(projectstatistics.FieldProjectID).
		Update(func(u *ent.ProjectStatisticsUpsert) { u.AddPushesSinceGc(1) }).
		Exec(ctx); err != nil {
		return err
	}
	st, err := c.ProjectStatistics.Query().Where(projectstatistics.ProjectID(projectID)).
		Select(projectstatistics.FieldPushesSinceGc).Only(ctx)
	if err != nil {
		return err
	}
	if n := st.PushesSinceGc; n == 1 || n%housekeepingPeriod == 0 {
		return s.jobs.Enqueue(ctx, HousekeepJob{ProjectID: projectID})
	}
	return nil
}
