package presenter

import "anvil/internal/jobs"

// SidekiqQueues is GitLab's queue_metrics: each queue's backlog and latency in seconds.
func SidekiqQueues(m *jobs.Metrics) map[string]any {
	queues := map[string]any{}
	for _, q := range m.Queues {
		queues[q.Name] = map[string]any{"backlog": q.Backlog, "latency": int(q.Latency.Seconds())}
	}
	return map[string]any{"queues": queues}
}

// SidekiqProcesses is GitLab's process_metrics: the processes working jobs (this one).
func SidekiqProcesses(m *jobs.Metrics) map[string]any {
	procs := make([]map[string]any, 0, len(m.Processes))
	for _, p := range m.Processes {
		procs = append(procs, map[string]any{
			"hostname": p.Hostname, "pid": p.PID, "tag": "anvil", "started_at": Time(p.StartedAt),
			"queues": p.Queues, "labels": []string{}, "concurrency": p.Concurrency, "busy": p.Busy,
		})
	}
	return map[string]any{"processes": procs}
}

// SidekiqJobs is GitLab's job_stats.
func SidekiqJobs(m *jobs.Metrics) map[string]any {
	return map[string]any{"jobs": map[string]any{
		"processed": m.Jobs.Processed, "failed": m.Jobs.Failed, "enqueued": m.Jobs.Enqueued, "dead": m.Jobs.Dead,
	}}
}

// SidekiqCompound is GitLab's compound_metrics: the three above in one object.
func SidekiqCompound(m *jobs.Metrics) map[string]any {
	out := SidekiqQueues(m)
	out["processes"] = SidekiqProcesses(m)["processes"]
	out["jobs"] = SidekiqJobs(m)["jobs"]
	return out
}
