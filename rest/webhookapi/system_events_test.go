package webhookapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSystemEvents_renames: a project update, rename and transfer, a user's new username and a
// group's new path reach the system hooks as project_update, project_rename (with the old
// path), project_transfer, user_rename and group_rename.
func TestSystemEvents_renames(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	sys := newReceiver(t)
	require.Equal(t, 201, f.Do(t, "POST", "/hooks", "root", `{"url":"`+sys.URL+`","repository_update_events":false}`).Status)
	p := f.Project(t, "moving", "private")
	pid := strconv.Itoa(p.ID)
	other := f.In.NewGroup(t, "other", "public", nil)
	// The group's Owners are the project's owners (GitLab's ProjectBuilder).
	boss, _ := f.In.NewUser(t, "boss")
	f.In.AddGroupMember(t, f.Group, boss, 50)
	f.In.WaitJobs(t)
	seen := len(sys.deliveries())
	next := func() map[string]any {
		t.Helper()
		seen++
		return sys.wait(t, seen)[seen-1].Body
	}

	r := f.Do(t, "PUT", "/projects/"+pid, "root", `{"description":"New words"}`)
	require.Equal(t, 200, r.Status, r.String())
	b := next()
	assert.Equal(t, map[string]any{"created_at": b["created_at"], "updated_at": b["updated_at"], "event_name": "project_update",
		"name": "moving", "owner_email": "", "owner_name": "g", "path": "moving",
		"owners":              []any{map[string]any{"name": boss.Name, "email": "[REDACTED]"}},
		"path_with_namespace": "g/moving", "project_id": float64(p.ID), "project_visibility": "private"}, b)

	require.Equal(t, 200, f.Do(t, "PUT", "/projects/"+pid, "root", `{"path":"moved"}`).Status)
	b = next()
	assert.Equal(t, "project_rename", b["event_name"])
	assert.Equal(t, "g/moved", b["path_with_namespace"])
	assert.Equal(t, "g/moving", b["old_path_with_namespace"])

	r = f.Do(t, "PUT", "/projects/"+pid+"/transfer", "root", `{"namespace":`+strconv.Itoa(other.ID)+`}`)
	require.Equal(t, 200, r.Status, r.String())
	b = next()
	assert.Equal(t, "project_transfer", b["event_name"])
	assert.Equal(t, "other/moved", b["path_with_namespace"])
	assert.Equal(t, "g/moved", b["old_path_with_namespace"])
	assert.Equal(t, "other", b["owner_name"])
	assert.Equal(t, []any{}, b["owners"], "the new group has no Owner")

	u := f.Users["outsider"]
	r = f.Do(t, "PUT", "/users/"+strconv.Itoa(u.ID), "root", `{"username":"insider"}`)
	require.Equal(t, 200, r.Status, r.String())
	b = next()
	assert.Equal(t, map[string]any{"created_at": b["created_at"], "updated_at": b["updated_at"], "event_name": "user_rename",
		"email": u.Email, "name": u.Name, "username": "insider", "user_id": float64(u.ID), "old_username": "outsider"}, b)

	r = f.Do(t, "PUT", "/groups/"+strconv.Itoa(other.ID), "root", `{"path":"another"}`)
	require.Equal(t, 200, r.Status, r.String())
	b = next()
	assert.Equal(t, map[string]any{"created_at": b["created_at"], "updated_at": b["updated_at"], "event_name": "group_rename",
		"name": "other", "path": "another", "full_path": "another", "group_id": float64(other.ID),
		"old_path": "other", "old_full_path": "other"}, b)

	f.In.WaitJobs(t)
	assert.Len(t, sys.deliveries(), seen, "one event each")
}
