package groupapi_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroups_Get_detail(t *testing.T) {
	in := servertest.Start(t)
	owner, ownerTok := in.NewUser(t, "owner")
	reporter, reporterTok := in.NewUser(t, "reporter")
	top := in.NewGroup(t, "acme", "public", nil)
	mid := in.NewGroup(t, "eng", "public", top)
	leaf := in.NewGroup(t, "backend", "internal", mid)
	in.AddGroupMember(t, leaf, owner, 50)
	in.AddGroupMember(t, leaf, reporter, 20)
	partner := in.NewGroup(t, "partner", "public", nil)
	hidden := in.NewGroup(t, "hidden", "private", nil)
	exp := time.Date(2031, 5, 6, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	require.NoError(t, in.DB.Client.GroupGroupLink.Create().SetSharedGroupID(leaf.ID).SetSharedWithGroupID(partner.ID).
		SetGroupAccess(30).SetExpiresAt(exp).Exec(ctx))
	require.NoError(t, in.DB.Client.GroupGroupLink.Create().SetSharedGroupID(leaf.ID).SetSharedWithGroupID(hidden.ID).
		SetGroupAccess(20).Exec(ctx))

	t.Run("owner sees runners token and visible shares", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups/acme%2Feng%2Fbackend", ownerTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, "acme / eng / backend", body["full_name"])
		assert.Equal(t, "acme/eng/backend", body["full_path"])
		assert.Equal(t, float64(mid.ID), body["parent_id"])
		assert.Regexp(t, `^GR1348941`, body["runners_token"])
		assert.NotContains(t, body, "enabled_git_access_protocol", "root groups only")
		assert.Equal(t, []any{map[string]any{
			"group_id": float64(partner.ID), "group_name": "partner", "group_full_path": "partner",
			"group_access_level": 30.0, "expires_at": "2031-05-06",
		}}, body["shared_with_groups"], "the private invited group is hidden from a non-member")
		assert.Equal(t, []any{}, body["projects"])
		assert.Equal(t, []any{}, body["shared_projects"])
	})
	t.Run("reporter sees no runners token", func(t *testing.T) {
		g, _, err := in.Client(t, reporterTok).Groups.GetGroup(leaf.ID, nil)
		require.NoError(t, err)
		assert.Empty(t, g.RunnersToken)
		r := in.Do(t, "GET", "/groups/"+id(leaf), reporterTok, nil)
		assert.NotContains(t, servertest.Decode[map[string]any](t, r), "runners_token")
	})
	t.Run("admin sees every share", func(t *testing.T) {
		g, _, err := in.Client(t, servertest.RootToken).Groups.GetGroup(leaf.ID, nil)
		require.NoError(t, err)
		require.Len(t, g.SharedWithGroups, 2)
		assert.Equal(t, "hidden", g.SharedWithGroups[1].GroupFullPath)
		assert.Nil(t, g.SharedWithGroups[1].ExpiresAt)
		assert.NotEmpty(t, g.RunnersToken)
	})
	t.Run("with_projects=false omits projects", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups/"+id(leaf)+"?with_projects=false", ownerTok, nil)
		body := servertest.Decode[map[string]any](t, r)
		assert.NotContains(t, body, "projects")
		assert.NotContains(t, body, "shared_projects")
		assert.Contains(t, body, "shared_with_groups")
	})
	t.Run("with_custom_attributes for administrators", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups/"+id(leaf)+"?with_custom_attributes=true", servertest.RootToken, nil)
		assert.Equal(t, []any{}, servertest.Decode[map[string]any](t, r)["custom_attributes"])
		r = in.Do(t, "GET", "/groups/"+id(leaf)+"?with_custom_attributes=true", ownerTok, nil)
		assert.NotContains(t, servertest.Decode[map[string]any](t, r), "custom_attributes")
	})
	t.Run("lookups", func(t *testing.T) {
		for _, tc := range []struct {
			desc, path, token string
			status            int
			body              string
		}{
			{"path is case-insensitive", "/groups/ACME", "", 200, ""},
			{"dots encoded as client-go does", "/groups/" + url.PathEscape("acme") + "%2Eno", "", 404, `{"message":"404 Group Not Found"}`},
			{"unknown id", "/groups/424242", ownerTok, 404, `{"message":"404 Group Not Found"}`},
			{"user namespace is not a group", "/groups/owner", ownerTok, 404, `{"message":"404 Group Not Found"}`},
			{"internal group hidden from anonymous", "/groups/" + id(leaf), "", 404, `{"message":"404 Group Not Found"}`},
			{"bad boolean", "/groups/" + id(top) + "?with_projects=perhaps", "", 400, `{"error":"with_projects is invalid"}`},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				r := in.Do(t, "GET", tc.path, tc.token, nil)
				assert.Equal(t, tc.status, r.Status, r.String())
				if tc.body != "" {
					assert.JSONEq(t, tc.body, string(r.Body))
				}
			})
		}
	})
	t.Run("anonymous client-go on a public group", func(t *testing.T) {
		g, _, err := in.Client(t, "").Groups.GetGroup("acme/eng", &gitlab.GetGroupOptions{WithProjects: gitlab.Ptr(false)})
		require.NoError(t, err)
		assert.Equal(t, "acme / eng", g.FullName)
		assert.Empty(t, g.RunnersToken)
	})
}
