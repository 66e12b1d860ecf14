package config

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Jobs tunes the background job queue (internal/jobs); zero values take its defaults.
type Jobs struct {
	Workers      int           // ANVIL_JOBS_WORKERS: jobs one process runs at once (8)
	PollInterval time.Duration // ANVIL_JOBS_POLL_INTERVAL: how often to look for jobs (1s)
	Timeout      time.Duration // ANVIL_JOBS_TIMEOUT: the longest one run of a job may take (10m)
	RescueAfter  time.Duration // ANVIL_JOBS_RESCUE_AFTER: when a job whose process died runs again (timeout + 5m)
	// SweepGrace (ANVIL_REPOSITORY_SWEEP_GRACE) is how old a half-created project or an
	// unnamed repository must be before the repository sweep removes it (1h).
	SweepGrace time.Duration
}

// jobsFromEnv reads the job queue's settings.
func (c *Config) jobsFromEnv() error {
	if v := os.Getenv("ANVIL_JOBS_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("ANVIL_JOBS_WORKERS %q: want a positive number", v)
		}
		c.Jobs.Workers = n
	}
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{
		{"ANVIL_JOBS_POLL_INTERVAL", &c.Jobs.PollInterval},
		{"ANVIL_JOBS_TIMEOUT", &c.Jobs.Timeout},
		{"ANVIL_JOBS_RESCUE_AFTER", &c.Jobs.RescueAfter},
		{"ANVIL_REPOSITORY_SWEEP_GRACE", &c.Jobs.SweepGrace},
	} {
		if v := os.Getenv(d.env); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t <= 0 {
				return fmt.Errorf("%s %q: want a positive duration (30s, 5m)", d.env, v)
			}
			*d.dst = t
		}
	}
	return nil
}
