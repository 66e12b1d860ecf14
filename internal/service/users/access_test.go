package users

import (
	"testing"
	"time"

	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/apperr"

	"github.com/stretchr/testify/assert"
)

// TestAccessError is the one rule for account states, per channel: what the API and git and
// registry clients answer for each state, locked or not.
func TestAccessError(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	future, past := now.Add(time.Minute), now.Add(-time.Minute)
	const deactivated = "Your account has been deactivated by your administrator. " +
		"Please log back in from a web browser to reactivate your account at https://git.example.com"
	type want struct {
		kind apperr.Kind // 0: allowed
		text string
	}
	allowed := want{}
	wrongCredentials := want{kind: apperr.KindUnauthorized}
	for _, tc := range []struct {
		state       user.State
		lockedUntil *time.Time
		api, git    want
	}{
		{user.StateActive, nil, allowed, allowed},
		{user.StateActive, &past, allowed, allowed},
		{user.StateActive, &future, allowed, wrongCredentials},
		{user.StateDeactivated, nil, want{apperr.KindForbidden, deactivated}, want{apperr.KindForbidden, deactivated}},
		{user.StateDeactivated, &future, want{apperr.KindForbidden, deactivated}, wrongCredentials},
		{user.StateBlocked, nil, want{apperr.KindForbidden, "Your account has been blocked."}, wrongCredentials},
		{user.StateLdapBlocked, nil, want{apperr.KindForbidden, "Your account has been blocked."}, wrongCredentials},
		{user.StateBanned, nil, want{apperr.KindForbidden, "Your account has been blocked."}, wrongCredentials},
		{user.StateBlockedPendingApproval, nil,
			want{apperr.KindForbidden, "Your account is pending approval from your administrator and hence blocked."}, wrongCredentials},
	} {
		u := &ent.User{State: tc.state, LockedUntil: tc.lockedUntil}
		name := string(tc.state)
		if tc.lockedUntil != nil {
			name += " locked until " + tc.lockedUntil.Format(time.Kitchen)
		}
		for ch, w := range map[Channel]want{ViaAPI: tc.api, ViaGitClient: tc.git} {
			err := AccessError(u, ch, "https://git.example.com/", now)
			if w.kind == 0 {
				assert.NoError(t, err, "%s, channel %d", name, ch)
				continue
			}
			e, ok := apperr.As(err)
			if assert.True(t, ok, "%s, channel %d: %v", name, ch, err) {
				assert.Equal(t, w.kind, e.Kind, "%s, channel %d", name, ch)
				assert.Equal(t, w.text, e.Text(), "%s, channel %d", name, ch)
			}
		}
	}
}

func TestAccessLocked(t *testing.T) {
	now := time.Now()
	assert.False(t, AccessLocked(&ent.User{}, now))
	until := now.Add(time.Second)
	assert.True(t, AccessLocked(&ent.User{LockedUntil: &until}, now))
	assert.False(t, AccessLocked(&ent.User{LockedUntil: &until}, until), "a lock ends at its end")
}
