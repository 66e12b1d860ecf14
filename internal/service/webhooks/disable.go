package webhooks

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/internal/db"
)

// The alert states of a hook (GitLab's alert_status).
const (
	Executable          = "executable"
	TemporarilyDisabled = "temporarily_disabled"
	Disabled            = "disabled"
)

// GitLab's auto-disabling thresholds: the failures after the third disable a hook for a
// backoff starting at one minute and doubling up to a day; after the fortieth it stays
// disabled.
const (
	temporaryFailureThreshold = 3
	permanentFailureThreshold = 39
	initialBackoff            = time.Minute
	maxBackoff                = 24 * time.Hour
)

// AlertStatus is h's alert state at now.
func AlertStatus(h *ent.WebHook, now time.Time) string {
	switch {
	case h.PermanentlyDisabled:
		return Disabled
	case h.DisabledUntil != nil && h.DisabledUntil.After(now):
		return TemporarilyDisabled
	}
	return Executable
}

// DisabledUntil is when a temporarily disabled hook runs again, nil otherwise.
func DisabledUntil(h *ent.WebHook, now time.Time) *time.Time {
	if AlertStatus(h, now) == TemporarilyDisabled {
		return h.DisabledUntil
	}
	return nil
}

// backoff is the length of a hook's next temporary disabling after backoffCount earlier ones.
func backoff(backoffCount int) time.Duration {
	d := initialBackoff
	for i := 0; i < backoffCount && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// recordOutcome keeps h's failure count after a delivery: a success re-enables it; a failure
// counts, and from the fourth in a row disables it for a while, after the fortieth for good.
func (s *Service) recordOutcome(ctx context.Context, h *ent.WebHook, success bool) error {
	c := db.ClientFrom(ctx, s.Client)
	if success {
		if h.RecentFailures == 0 && h.BackoffCount == 0 && h.DisabledUntil == nil && !h.PermanentlyDisabled {
			return nil
		}
		return c.WebHook.UpdateOneID(h.ID).SetRecentFailures(0).SetBackoffCount(0).
			ClearDisabledUntil().SetPermanentlyDisabled(false).Exec(ctx)
	}
	if h.PermanentlyDisabled {
		return nil
	}
	failures := h.RecentFailures + 1
	u := c.WebHook.UpdateOneID(h.ID).SetRecentFailures(failures)
	switch {
	case failures > permanentFailureThreshold:
		u.SetPermanentlyDisabled(true).ClearDisabledUntil()
	case failures > temporaryFailureThreshold:
		until := s.now().Add(backoff(h.BackoffCount)).UTC()
		u.SetBackoffCount(h.BackoffCount + 1).SetDisabledUntil(until)
	}
	return u.Exec(ctx)
}
