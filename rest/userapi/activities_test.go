package userapi_test

import (
	"context"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsers_Activities: GET /user/activities lists the users active since from (six months
// ago by default), least recently active first, as GitLab's UserActivity entity, paginated;
// administrators only.
func TestUsers_Activities(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	day := func(n int) time.Time {
		return time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, n)
	}
	alice, atok := in.NewUser(t, "alice")
	bob, _ := in.NewUser(t, "bob")
	carol, _ := in.NewUser(t, "carol")
	dave, _ := in.NewUser(t, "dave")
	in.DB.Client.User.UpdateOne(alice).SetLastActivityOn(day(-10)).ExecX(ctx)
	in.DB.Client.User.UpdateOne(bob).SetLastActivityOn(day(-40)).ExecX(ctx)
	in.DB.Client.User.UpdateOne(carol).SetLastActivityOn(day(-400)).ExecX(ctx)
	in.DB.Client.User.UpdateOne(dave).ClearLastActivityOn().ExecX(ctx)

	r := in.Do(t, "GET", "/user/activities", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	got := servertest.List(t, r)
	names := []string{}
	for _, a := range got {
		names = append(names, a["username"].(string))
	}
	assert.Equal(t, []string{"bob", "alice", "root"}, names)
	assert.Equal(t, map[string]any{"username": "bob", "last_activity_on": day(-40).Format("2006-01-02"),
		"last_activity_at": day(-40).Format("2006-01-02")}, got[0])
	assert.Equal(t, "3", r.Header.Get("X-Total"))

	assert.Equal(t, []string{"alice", "root"}, usernames(t, in, "/user/activities?from="+day(-10).Format("2006-01-02"), servertest.RootToken))
	assert.Equal(t, []string{"carol", "bob"}, usernames(t, in, "/user/activities?from=2000-01-01&per_page=2", servertest.RootToken))

	r = in.Do(t, "GET", "/user/activities?from=yesterday", servertest.RootToken, nil)
	assert.Equal(t, 400, r.Status, r.String())
	assert.JSONEq(t, `{"error":"from is invalid"}`, string(r.Body))
	r = in.Do(t, "GET", "/user/activities", atok, nil)
	assert.Equal(t, 403, r.Status, r.String())
	assert.Equal(t, 401, in.Do(t, "GET", "/user/activities", "", nil).Status)
}
