package userapi_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/user"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestUsers_State checks block, unblock, activate, deactivate, ban and unban.
func TestUsers_State(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	u, token := in.NewUser(t, "target")
	bot, _ := in.NewUser(t, "alertbot", withType("alert_bot"))
	ldap, _ := in.NewUser(t, "ldapuser")
	setState(t, in, ldap, user.StateLdapBlocked)
	recent, _ := in.NewUser(t, "recent")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	require.NoError(t, in.DB.Client.User.UpdateOneID(recent.ID).SetLastActivityOn(today).Exec(ctx))
	id := strconv.Itoa(u.ID)

	state := func(t *testing.T) user.State {
		got, err := in.DB.Client.User.Get(ctx, u.ID)
		require.NoError(t, err)
		return got.State
	}
	for _, step := range []struct {
		desc, path string
		status     int
		body       string
		after      user.State
	}{
		{"block", "/users/" + id + "/block", 201, `true`, user.StateBlocked},
		{"block again answers null", "/users/" + id + "/block", 201, `null`, user.StateBlocked},
		{"a blocked user cannot be activated", "/users/" + id + "/activate", 403, `{"message":"403 Forbidden - A blocked user must be unblocked to be activated"}`, user.StateBlocked},
		{"a blocked user cannot be deactivated", "/users/" + id + "/deactivate", 403, `{"message":"403 Forbidden - A blocked user cannot be deactivated by the API"}`, user.StateBlocked},
		{"a blocked user cannot be banned", "/users/" + id + "/ban", 403, `{"message":"You cannot ban blocked users."}`, user.StateBlocked},
		{"unblock", "/users/" + id + "/unblock", 201, `true`, user.StateActive},
		{"unblock an active user answers false", "/users/" + id + "/unblock", 201, `false`, user.StateActive},
		{"activate an active user", "/users/" + id + "/activate", 201, `true`, user.StateActive},
		{"deactivate", "/users/" + id + "/deactivate", 201, `true`, user.StateDeactivated},
		{"deactivate again answers null", "/users/" + id + "/deactivate", 201, `null`, user.StateDeactivated},
		{"a deactivated user cannot be unblocked", "/users/" + id + "/unblock", 403, `{"message":"403 Forbidden - Deactivated users cannot be unblocked by the API"}`, user.StateDeactivated},
		{"activate", "/users/" + id + "/activate", 201, `true`, user.StateActive},
		{"ban", "/users/" + id + "/ban", 201, `true`, user.StateBanned},
		{"ban again", "/users/" + id + "/ban", 403, `{"message":"You cannot ban banned users."}`, user.StateBanned},
		{"unban", "/users/" + id + "/unban", 201, `true`, user.StateActive},
		{"unban an active user", "/users/" + id + "/unban", 403, `{"message":"You cannot unban active users."}`, user.StateActive},
	} {
		t.Run(step.desc, func(t *testing.T) {
			r := in.Do(t, "POST", step.path, servertest.RootToken, nil)
			assert.Equal(t, step.status, r.Status, r.String())
			assert.JSONEq(t, step.body, string(r.Body))
			assert.Equal(t, step.after, state(t))
		})
	}
	for _, tc := range []struct {
		desc, token, path string
		status            int
		body              string
	}{
		{"an internal user cannot be blocked", servertest.RootToken, "/users/" + strconv.Itoa(bot.ID) + "/block", 403, `{"message":"An internal user cannot be blocked"}`},
		{"an internal user cannot be deactivated", servertest.RootToken, "/users/" + strconv.Itoa(bot.ID) + "/deactivate", 403, `{"message":"403 Forbidden - An internal user cannot be deactivated by the API"}`},
		{"administrators cannot block themselves", servertest.RootToken, "/users/1/block", 403, `{"message":"403 Forbidden - The API initiating user cannot be blocked by the API"}`},
		{"LDAP-blocked users cannot be blocked", servertest.RootToken, "/users/" + strconv.Itoa(ldap.ID) + "/block", 403, `{"message":"403 Forbidden - LDAP blocked users cannot be modified by the API"}`},
		{"LDAP-blocked users cannot be unblocked", servertest.RootToken, "/users/" + strconv.Itoa(ldap.ID) + "/unblock", 403, `{"message":"403 Forbidden - LDAP blocked users cannot be unblocked by the API"}`},
		{"recently active users cannot be deactivated", servertest.RootToken, "/users/" + strconv.Itoa(recent.ID) + "/deactivate", 403, `{"message":"403 Forbidden - The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated"}`},
		{"unknown user", servertest.RootToken, "/users/999/block", 404, `{"message":"404 User Not Found"}`},
		{"not an administrator", token, "/users/1/ban", 403, `{"message":"403 Forbidden"}`},
		{"anonymous", "", "/users/1/unban", 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.body, string(r.Body))
		})
	}
	t.Run("a blocked user's token is refused", func(t *testing.T) {
		require.Equal(t, 201, in.Do(t, "POST", "/users/"+id+"/block", servertest.RootToken, nil).Status)
		r := in.Do(t, "GET", "/user", token, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden - Your account has been blocked."}`, string(r.Body))
	})
	t.Run("client-go", func(t *testing.T) {
		gl := in.Client(t, servertest.RootToken)
		require.NoError(t, gl.Users.UnblockUser(int64(u.ID)))
		// The user's requests above made it active today; GitLab refuses to deactivate users
		// active in the past 90 days (that refusal is tested in TestUsers_deactivateRecentlyActive).
		require.NoError(t, in.DB.Client.User.UpdateOneID(u.ID).SetLastActivityOn(time.Now().AddDate(0, 0, -200)).Exec(t.Context()))
		require.NoError(t, gl.Users.DeactivateUser(int64(u.ID)))
		require.NoError(t, gl.Users.ActivateUser(int64(u.ID)))
		require.NoError(t, gl.Users.BanUser(int64(u.ID)))
		require.NoError(t, gl.Users.UnbanUser(int64(u.ID)))
		require.NoError(t, gl.Users.BlockUser(int64(u.ID)))
		assert.Equal(t, user.StateBlocked, state(t))
	})
}

// TestUsers_CustomAttributes checks /users/:id/custom_attributes.
func TestUsers_CustomAttributes(t *testing.T) {
	in := servertest.Start(t)
	u, token := in.NewUser(t, "tagged")
	base := "/users/" + strconv.Itoa(u.ID) + "/custom_attributes"

	t.Run("set, read, replace and delete", func(t *testing.T) {
		r := in.Do(t, "PUT", base+"/department", servertest.RootToken, `{"value":"eng"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, `{"key":"department","value":"eng"}`, string(r.Body))
		r = in.Do(t, "PUT", base+"/location", servertest.RootToken, `{"value":"remote"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		r = in.Do(t, "PUT", base+"/department", servertest.RootToken, `{"value":"ops"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, `{"key":"department","value":"ops"}`, string(r.Body))

		r = in.Do(t, "GET", base, servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, `[{"key":"department","value":"ops"},{"key":"location","value":"remote"}]`, string(r.Body))
		r = in.Do(t, "GET", base+"/location", servertest.RootToken, nil)
		assert.JSONEq(t, `{"key":"location","value":"remote"}`, string(r.Body))

		r = in.Do(t, "DELETE", base+"/location", servertest.RootToken, nil)
		assert.Equal(t, http.StatusNoContent, r.Status)
		assert.Empty(t, r.Body)
		assert.JSONEq(t, `[{"key":"department","value":"ops"}]`, string(in.Do(t, "GET", base, servertest.RootToken, nil).Body))
		assert.Equal(t, []string{"tagged"}, usernames(t, in, "/users?custom_attributes[department]=ops", servertest.RootToken))
	})
	t.Run("client-go", func(t *testing.T) {
		gl := in.Client(t, servertest.RootToken)
		a, _, err := gl.CustomAttribute.SetCustomUserAttribute(int64(u.ID), gitlab.CustomAttribute{Key: "team", Value: "blue"})
		require.NoError(t, err)
		assert.Equal(t, "blue", a.Value)
		got, _, err := gl.CustomAttribute.GetCustomUserAttribute(int64(u.ID), "team")
		require.NoError(t, err)
		assert.Equal(t, "team", got.Key)
		all, _, err := gl.CustomAttribute.ListCustomUserAttributes(int64(u.ID))
		require.NoError(t, err)
		assert.Len(t, all, 2)
		_, err = gl.CustomAttribute.DeleteCustomUserAttribute(int64(u.ID), "team")
		require.NoError(t, err)
	})
	for _, tc := range []struct {
		desc, method, token, path, body string
		status                          int
		want                            string
	}{
		{"missing key", "GET", servertest.RootToken, base + "/nope", "", 404, `{"message":"404 Not found"}`},
		{"delete missing key", "DELETE", servertest.RootToken, base + "/nope", "", 404, `{"message":"404 Custom attribute Not Found"}`},
		{"unknown user", "GET", servertest.RootToken, "/users/999/custom_attributes", "", 404, `{"message":"404 Not Found"}`},
		{"value is required", "PUT", servertest.RootToken, base + "/k", `{}`, 400, `{"error":"value is missing"}`},
		{"overlong value", "PUT", servertest.RootToken, base + "/k", `{"value":"` + strings.Repeat("v", 256) + `"}`, 400, `{"message":{"value":["is too long (maximum is 255 characters)"]}}`},
		{"not an administrator", "GET", token, base, "", 403, `{"message":"403 Forbidden"}`},
		{"not an administrator writes", "PUT", token, base + "/k", `{"value":"v"}`, 403, `{"message":"403 Forbidden"}`},
		{"anonymous", "GET", "", base, "", 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			r := in.Do(t, tc.method, tc.path, tc.token, body)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
}

// TestUsers_deactivateRecentlyActive: an authenticated request records the day's activity
// (last_activity_on, once a day, not while impersonated), and GitLab refuses to deactivate a
// user active in the past 90 days.
func TestUsers_deactivateRecentlyActive(t *testing.T) {
	in := servertest.Start(t)
	u, token := in.NewUser(t, "busy")
	path := "/users/" + strconv.Itoa(u.ID)
	show := func() map[string]any {
		r := in.Do(t, "GET", path, servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		return servertest.Object(t, r)
	}
	assert.Nil(t, show()["last_activity_on"], "no request yet")

	impersonation := in.Do(t, "POST", path+"/impersonation_tokens", servertest.RootToken,
		`{"name":"imp","scopes":["api"],"expires_at":"`+time.Now().AddDate(0, 1, 0).Format("2006-01-02")+`"}`)
	require.Equal(t, http.StatusCreated, impersonation.Status, impersonation.String())
	secret := servertest.Object(t, impersonation)["token"].(string)
	require.Equal(t, http.StatusOK, in.Do(t, "GET", "/user", secret, nil).Status)
	assert.Nil(t, show()["last_activity_on"], "impersonation is not the user's activity")

	require.Equal(t, http.StatusOK, in.Do(t, "GET", "/user", token, nil).Status)
	today := time.Now().UTC().Format("2006-01-02")
	assert.Equal(t, today, show()["last_activity_on"])

	r := in.Do(t, "POST", path+"/deactivate", servertest.RootToken, nil)
	assert.Equal(t, http.StatusForbidden, r.Status)
	assert.JSONEq(t, `{"message":"403 Forbidden - The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated"}`, string(r.Body))
}
