package projectapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestProjects_share(t *testing.T) {
	in := servertest.Start(t)
	home := in.NewGroup(t, "home", "private", nil)
	child := in.NewGroup(t, "child", "private", home)
	p := in.NewProject(t, child, "shared", "private")
	maint, maintTok := in.NewUser(t, "maint")
	in.AddProjectMember(t, p, maint, 40)
	visible := in.NewGroup(t, "visible", "internal", nil)
	other := in.NewGroup(t, "other", "public", nil)
	hidden := in.NewGroup(t, "hidden", "private", nil)
	share := func(token string, groupID, access int, extra string) *servertest.Response {
		return in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", p.ID), token,
			fmt.Sprintf(`{"group_id":%d,"group_access":%d%s}`, groupID, access, extra))
	}

	t.Run("creates the link", func(t *testing.T) {
		r := share(maintTok, visible.ID, 30, `,"expires_at":"2031-02-03"`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, map[string]any{"id": body["id"], "project_id": float64(p.ID), "group_id": float64(visible.ID),
			"group_access": float64(30), "expires_at": "2031-02-03"}, body)
	})
	t.Run("client-go", func(t *testing.T) {
		_, err := in.Client(t, maintTok).Projects.ShareProjectWithGroup(p.ID, &gitlab.ShareWithGroupOptions{
			GroupID: gitlab.Ptr(int64(other.ID)), GroupAccess: gitlab.Ptr(gitlab.ReporterPermissions)})
		require.NoError(t, err)
	})
	for _, tc := range []struct {
		desc       string
		token      string
		group, lvl int
		status     int
		want       string
	}{
		{"already shared", maintTok, visible.ID, 20, 409, `{"message":"Project already shared with this group"}`},
		{"own group", maintTok, child.ID, 20, 409, `{"message":"Project cannot be shared with the group it is in or one of its ancestors."}`},
		{"ancestor group", servertest.RootToken, home.ID, 20, 409, `{"message":"Project cannot be shared with the group it is in or one of its ancestors."}`},
		{"invisible group", maintTok, hidden.ID, 20, 404, `{"message":"Not Found"}`},
		{"unknown group", maintTok, 999999, 20, 404, `{"message":"Not Found"}`},
		{"owner access needs an owner", maintTok, hidden.ID, 50, 403, `{"message":"403 Forbidden"}`},
		{"bad access level", maintTok, other.ID, 35, 400, `{"error":"group_access does not have a valid value"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := share(tc.token, tc.group, tc.lvl, "")
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
	t.Run("missing parameters", func(t *testing.T) {
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", p.ID), maintTok, `{}`)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"group_id is missing, group_access is missing"}`, string(r.Body))
	})
	t.Run("developers may not share", func(t *testing.T) {
		dev, devTok := in.NewUser(t, "dev")
		in.AddProjectMember(t, p, dev, 30)
		assert.Equal(t, http.StatusForbidden, share(devTok, other.ID, 10, "").Status)
	})
	t.Run("shared_with_groups", func(t *testing.T) {
		got, _, err := in.Client(t, maintTok).Projects.GetProject(p.ID, nil)
		require.NoError(t, err)
		require.Len(t, got.SharedWithGroups, 2)
		assert.Equal(t, int64(visible.ID), got.SharedWithGroups[0].GroupID)
		assert.Equal(t, "visible", got.SharedWithGroups[0].GroupFullPath)
		assert.Equal(t, int64(30), got.SharedWithGroups[0].GroupAccessLevel)
		assert.Equal(t, "2031-02-03", got.SharedWithGroups[0].ExpiresAt.String())
		assert.Equal(t, int64(other.ID), got.SharedWithGroups[1].GroupID)
	})
	t.Run("shared groups the viewer cannot see are hidden", func(t *testing.T) {
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", p.ID), servertest.RootToken, fmt.Sprintf(`{"group_id":%d,"group_access":10}`, hidden.ID))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		guest, guestTok := in.NewUser(t, "guest")
		in.AddProjectMember(t, p, guest, 10)
		body := servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), guestTok, nil))
		assert.Len(t, body["shared_with_groups"], 2, "the guest cannot see the private group")
		body = servertest.Decode[map[string]any](t, in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), maintTok, nil))
		assert.Len(t, body["shared_with_groups"], 3, "those who administer the project see every share")
	})
	t.Run("share lock", func(t *testing.T) {
		require.NoError(t, in.DB.Client.Namespace.UpdateOne(child).SetShareWithGroupLock(true).Exec(t.Context()))
		defer func() { _ = in.DB.Client.Namespace.UpdateOne(child).SetShareWithGroupLock(false).Exec(t.Context()) }()
		r := share(maintTok, other.ID, 10, "")
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":"The project sharing with group is disabled"}`, string(r.Body))
	})
	t.Run("unshare", func(t *testing.T) {
		resp, err := in.Client(t, maintTok).Projects.DeleteSharedProjectFromGroup(p.ID, int64(other.ID))
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		r := in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/share/%d", p.ID, other.ID), maintTok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 Group Link Not Found"}`, string(r.Body))
		r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/share/abc", p.ID), maintTok, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"group_id is invalid"}`, string(r.Body))
	})
}
