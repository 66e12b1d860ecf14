package webhooks

import (
	"context"

	"anvil/ent/webhooklog"
)

// logRetention is how long delivery logs are kept: the event list shows seven days, GitLab
// keeps its partitions a month.
const logRetention = 30 * eventWindow / 7

// PruneLogsJob removes delivery logs past their retention, daily.
type PruneLogsJob struct{}

// Kind names the job.
func (PruneLogsJob) Kind() string { return "web_hook_logs_prune" }

// RunPruneLogs works a PruneLogsJob.
func (s *Service) RunPruneLogs(ctx context.Context, _ PruneLogsJob) error {
	_, err := s.Client.WebHookLog.Delete().Where(webhooklog.CreatedAtLT(s.now().Add(-logRetention))).Exec(ctx)
	return err
}
