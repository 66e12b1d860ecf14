package webhooks

import (
	"encoding/json"
	"testing"
	"time"

	"anvil/ent"
	"anvil/ent/webhook"

	"github.com/stretchr/testify/assert"
)

// TestBranchMatches covers the three strategies: wildcard lists with *, regular expressions,
// and all branches; an empty filter passes everything.
func TestBranchMatches(t *testing.T) {
	hook := func(strategy webhook.BranchFilterStrategy, filter string) *ent.WebHook {
		h := &ent.WebHook{BranchFilterStrategy: strategy}
		if filter != "" {
			h.PushEventsBranchFilter = &filter
		}
		return h
	}
	for _, tc := range []struct {
		strategy webhook.BranchFilterStrategy
		filter   string
		branch   string
		want     bool
	}{
		{webhook.BranchFilterStrategyWildcard, "", "anything", true},
		{webhook.BranchFilterStrategyWildcard, "main", "main", true},
		{webhook.BranchFilterStrategyWildcard, "main", "main2", false},
		{webhook.BranchFilterStrategyWildcard, "release/*", "release/1.0", true},
		{webhook.BranchFilterStrategyWildcard, "release/*", "hotfix/1.0", false},
		{webhook.BranchFilterStrategyWildcard, "main, feature-*", "feature-x", true},
		{webhook.BranchFilterStrategyWildcard, "a.b", "axb", false},
		{webhook.BranchFilterStrategyRegex, "^rel-[0-9]+$", "rel-12", true},
		{webhook.BranchFilterStrategyRegex, "^rel-[0-9]+$", "rel-x", false},
		{webhook.BranchFilterStrategyRegex, "([", "rel-x", false},
		{webhook.BranchFilterStrategyAllBranches, "main", "other", true},
	} {
		assert.Equal(t, tc.want, BranchMatches(hook(tc.strategy, tc.filter), tc.branch), "%s %q %q", tc.strategy, tc.filter, tc.branch)
	}
}

// TestBackoff: one minute, doubling, at most a day.
func TestBackoff(t *testing.T) {
	assert.Equal(t, time.Minute, backoff(0))
	assert.Equal(t, 2*time.Minute, backoff(1))
	assert.Equal(t, 1024*time.Minute, backoff(10))
	assert.Equal(t, 24*time.Hour, backoff(11))
	assert.Equal(t, 24*time.Hour, backoff(100))
}

// TestAlertStatus: permanently disabled beats a pending backoff; a backoff in the past is
// executable again.
func TestAlertStatus(t *testing.T) {
	now := time.Now()
	past, future := now.Add(-time.Second), now.Add(time.Minute)
	assert.Equal(t, Executable, AlertStatus(&ent.WebHook{}, now))
	assert.Equal(t, Executable, AlertStatus(&ent.WebHook{DisabledUntil: &past}, now))
	assert.Equal(t, TemporarilyDisabled, AlertStatus(&ent.WebHook{DisabledUntil: &future}, now))
	assert.Equal(t, Disabled, AlertStatus(&ent.WebHook{DisabledUntil: &future, PermanentlyDisabled: true}, now))
	assert.Nil(t, DisabledUntil(&ent.WebHook{DisabledUntil: &past}, now))
	assert.Equal(t, &future, DisabledUntil(&ent.WebHook{DisabledUntil: &future}, now))
}

// TestRenderTemplate fills {{paths}} from the payload, escaping strings for JSON.
func TestRenderTemplate(t *testing.T) {
	payload := json.RawMessage(`{"object_kind":"push","user_name":"A \"quoted\" name","commits":[{"id":"abc"}],"total_commits_count":3}`)
	got := renderTemplate(`{"kind":"{{object_kind}}","who":"{{user_name}}","first":"{{commits.0.id}}","n":{{total_commits_count}},"none":"{{missing.path}}"}`, payload)
	assert.JSONEq(t, `{"kind":"push","who":"A \"quoted\" name","first":"abc","n":3,"none":""}`, string(got))
}

// TestInterpolate replaces URL variables.
func TestInterpolate(t *testing.T) {
	assert.Equal(t, "http://h/x/secret?t=v", interpolate("http://h/x/{a}?t={b}", map[string]string{"a": "secret", "b": "v"}))
	assert.Equal(t, "http://h/{a}", interpolate("http://h/{a}", nil))
}

// TestLimiter allows five calls a minute per key.
func TestLimiter(t *testing.T) {
	now := time.Now()
	l := newLimiter(func() time.Time { return now })
	for i := 0; i < 5; i++ {
		_, ok := l.allow("resend", 1, 1)
		assert.True(t, ok)
	}
	wait, ok := l.allow("resend", 1, 1)
	assert.False(t, ok)
	assert.Equal(t, time.Minute, wait)
	_, ok = l.allow("resend", 1, 2)
	assert.True(t, ok, "another user has a limit of their own")
	_, ok = l.allow("resend", 2, 1)
	assert.True(t, ok, "another hook too")
	now = now.Add(61 * time.Second)
	_, ok = l.allow("resend", 1, 1)
	assert.True(t, ok, "a minute later")
}
