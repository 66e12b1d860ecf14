package groupapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/groupgrouplink"
	"anvil/internal/authz"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroups_Share(t *testing.T) {
	in := servertest.Start(t)
	owner, ownerTok := in.NewUser(t, "owner")
	maint, maintTok := in.NewUser(t, "maint")
	invitee, inviteeTok := in.NewUser(t, "invitee")
	shared := in.NewGroup(t, "vault", "private", nil)
	sub := in.NewGroup(t, "inner", "private", shared)
	invited := in.NewGroup(t, "guests", "private", nil)
	hidden := in.NewGroup(t, "hidden", "private", nil)
	in.AddGroupMember(t, shared, owner, 50)
	in.AddGroupMember(t, shared, maint, 40)
	in.AddGroupMember(t, invited, owner, 10)
	in.AddGroupMember(t, invited, invitee, 40)
	in.AddGroupMember(t, invited, maint, 10)
	proj := in.NewProject(t, sub, "secrets", "private")
	ctx := context.Background()

	// Before the share the invitee sees neither the group nor the project.
	assert.Equal(t, 404, in.Do(t, "GET", "/groups/vault", inviteeTok, nil).Status)
	_, readable, err := in.Services.Policy.ProjectLevel(ctx, authz.System(invitee), proj)
	require.NoError(t, err)
	assert.False(t, readable)

	exp := gitlab.ISOTime(time.Date(2032, 1, 2, 0, 0, 0, 0, time.UTC))
	g, resp, err := in.Client(t, ownerTok).Groups.ShareGroupWithGroup("vault", &gitlab.ShareGroupWithGroupOptions{
		GroupID: gitlab.Ptr(int64(invited.ID)), GroupAccess: gitlab.Ptr(gitlab.DeveloperPermissions), ExpiresAt: &exp,
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	require.Len(t, g.SharedWithGroups, 1)
	sw := g.SharedWithGroups[0]
	assert.Equal(t, int64(invited.ID), sw.GroupID)
	assert.Equal(t, "guests", sw.GroupName)
	assert.Equal(t, "guests", sw.GroupFullPath)
	assert.Equal(t, int64(30), sw.GroupAccessLevel)
	require.NotNil(t, sw.ExpiresAt)
	assert.Equal(t, "2032-01-02", sw.ExpiresAt.String())

	t.Run("members of the invited group gain capped access", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups/vault%2Finner", inviteeTok, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.NotContains(t, servertest.Decode[map[string]any](t, r), "runners_token")
		level, readable, err := in.Services.Policy.ProjectLevel(ctx, authz.System(invitee), proj)
		require.NoError(t, err)
		assert.True(t, readable)
		assert.Equal(t, authz.Developer, level, "min(Maintainer in the invited group, Developer share)")
		assert.Contains(t, paths(t, in.Do(t, "GET", "/groups", inviteeTok, nil)), "vault/inner")
	})

	for _, tc := range []struct {
		desc, token, ref, body string
		status                 int
		want                   string
	}{
		{"again", ownerTok, "vault", `{"group_id":` + id(invited) + `,"group_access":30}`, 409,
			`{"message":"Shared group The group has already been shared with this group"}`},
		{"maintainer may not share", maintTok, "vault", `{"group_id":` + id(invited) + `,"group_access":30}`, 404, `{"message":"Not Found"}`},
		{"invisible invited group", ownerTok, "vault", `{"group_id":` + id(hidden) + `,"group_access":30}`, 404, `{"message":"404 Group Not Found"}`},
		{"invisible shared group", inviteeTok, "hidden", `{"group_id":` + id(invited) + `,"group_access":30}`, 404, `{"message":"404 Group Not Found"}`},
		{"missing params", ownerTok, "vault", `{}`, 400, `{"error":"group_id is missing, group_access is missing"}`},
		{"bad access level", ownerTok, "vault", `{"group_id":` + id(invited) + `,"group_access":35}`, 400, `{"error":"group_access does not have a valid value"}`},
		{"bad date", ownerTok, "vault", `{"group_id":` + id(invited) + `,"group_access":30,"expires_at":"soon"}`, 400, `{"error":"expires_at is invalid"}`},
		{"anonymous", "", "vault", `{"group_id":` + id(invited) + `,"group_access":30}`, 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", "/groups/"+tc.ref+"/share", tc.token, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}

	t.Run("unshare", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token, path string
			status            int
			want              string
		}{
			{"not an integer", ownerTok, "/groups/vault/share/abc", 400, `{"error":"group_id is invalid"}`},
			{"no such share", ownerTok, "/groups/vault/share/" + id(hidden), 404, `{"message":"404 Group Link Not Found"}`},
			{"invisible group", inviteeTok, "/groups/hidden/share/" + id(invited), 404, `{"message":"404 Group Not Found"}`},
			{"maintainer", maintTok, "/groups/vault/share/" + id(invited), 403, `{"message":"403 Forbidden"}`},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				r := in.Do(t, "DELETE", tc.path, tc.token, nil)
				assert.Equal(t, tc.status, r.Status, r.String())
				assert.JSONEq(t, tc.want, string(r.Body))
			})
		}
		resp, err := in.Client(t, ownerTok).Groups.UnshareGroupFromGroup("vault", int64(invited.ID))
		require.NoError(t, err)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		n, err := in.DB.Client.GroupGroupLink.Query().Where(groupgrouplink.SharedGroupID(shared.ID)).Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
		assert.Equal(t, 404, in.Do(t, "GET", "/groups/vault%2Finner", inviteeTok, nil).Status)
		_, readable, err := in.Services.Policy.ProjectLevel(ctx, authz.System(invitee), proj)
		require.NoError(t, err)
		assert.False(t, readable)
	})

	t.Run("admin shares any group", func(t *testing.T) {
		r := in.Do(t, "POST", "/groups/hidden/share", servertest.RootToken, `{"group_id":`+id(invited)+`,"group_access":"20"}`)
		require.Equal(t, 201, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, []any{map[string]any{"group_id": float64(invited.ID), "group_name": "guests",
			"group_full_path": "guests", "group_access_level": 20.0, "expires_at": nil}}, body["shared_with_groups"])
	})
}
