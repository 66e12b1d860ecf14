package groupapi_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroups_Create_clientGo(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	gl := in.Client(t, tok)

	g, resp, err := gl.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name: gitlab.Ptr("Platform Team"), Path: gitlab.Ptr("platform"),
		Description:           gitlab.Ptr("Shared services"),
		Visibility:            gitlab.Ptr(gitlab.InternalVisibility),
		ProjectCreationLevel:  gitlab.Ptr(gitlab.MaintainerProjectCreation),
		SubGroupCreationLevel: gitlab.Ptr(gitlab.OwnerSubGroupCreationLevelValue),
		RequestAccessEnabled:  gitlab.Ptr(false),
		ShareWithGroupLock:    gitlab.Ptr(true),
		RequireTwoFactorAuth:  gitlab.Ptr(true),
		TwoFactorGracePeriod:  gitlab.Ptr(int64(12)),
		LFSEnabled:            gitlab.Ptr(false),
		EmailsEnabled:         gitlab.Ptr(false),
		MentionsDisabled:      gitlab.Ptr(true),
		DefaultBranch:         gitlab.Ptr("trunk"),
		AutoDevopsEnabled:     gitlab.Ptr(true),
		MembershipLock:        gitlab.Ptr(true),
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "Platform Team", g.Name)
	assert.Equal(t, "platform", g.Path)
	assert.Equal(t, "platform", g.FullPath)
	assert.Equal(t, "Platform Team", g.FullName)
	assert.Equal(t, "Shared services", g.Description)
	assert.Equal(t, gitlab.InternalVisibility, g.Visibility)
	assert.Equal(t, gitlab.MaintainerProjectCreation, g.ProjectCreationLevel)
	assert.Equal(t, gitlab.OwnerSubGroupCreationLevelValue, g.SubGroupCreationLevel)
	assert.False(t, g.RequestAccessEnabled)
	assert.True(t, g.ShareWithGroupLock)
	assert.True(t, g.RequireTwoFactorAuth)
	assert.Equal(t, int64(12), g.TwoFactorGracePeriod)
	assert.False(t, g.LFSEnabled)
	assert.False(t, g.EmailsEnabled)
	assert.True(t, g.EmailsDisabled)
	assert.True(t, g.MentionsDisabled)
	assert.Equal(t, "trunk", g.DefaultBranch)
	assert.True(t, g.AutoDevopsEnabled)
	assert.True(t, g.MembershipLock)
	assert.Equal(t, gitlab.EnabledSharedRunnersSettingValue, g.SharedRunnersSetting)
	assert.Equal(t, in.URL+"/groups/platform", g.WebURL)
	assert.Zero(t, g.ParentID)
	assert.Regexp(t, `^GR1348941[A-Za-z0-9_-]{20}$`, g.RunnersToken, "the creator owns the group")
	assert.Empty(t, g.SharedWithGroups)
	require.NotNil(t, g.CreatedAt)

	// The creator is an Owner member.
	m, err := in.DB.Client.Member.Query().Where(member.NamespaceID(int(g.ID)), member.UserID(alice.ID)).Only(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 50, m.AccessLevel)
	assert.Nil(t, m.CreatedByID, "GitLab adds the creator without a created_by")
	r := in.Do(t, "GET", fmt.Sprintf("/groups/%d/members/%d", g.ID, alice.ID), tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.NotContains(t, servertest.Decode[map[string]any](t, r), "created_by")

	// A subgroup through the parent's path, addressed by its encoded full path.
	sub, _, err := gl.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: gitlab.Ptr("Infra"), Path: gitlab.Ptr("infra"), ParentID: gitlab.Ptr(g.ID)})
	require.NoError(t, err)
	assert.Equal(t, "platform/infra", sub.FullPath)
	assert.Equal(t, "Platform Team / Infra", sub.FullName)
	assert.Equal(t, g.ID, sub.ParentID)
	assert.Equal(t, gitlab.PrivateVisibility, sub.Visibility, "default_group_visibility")
	assert.True(t, sub.ShareWithGroupLock, "a locked parent locks new subgroups")
	got, _, err := gl.Groups.GetGroup("platform/infra", nil)
	require.NoError(t, err)
	assert.Equal(t, sub.ID, got.ID)
	assert.Equal(t, in.URL+"/groups/platform/infra", got.WebURL)
}

func TestGroups_Create_rawShape(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "alice")
	r := in.Do(t, "POST", "/groups", tok, `{"name":"Team","path":"team","emails_disabled":true}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	body := servertest.Decode[map[string]any](t, r)
	assert.Equal(t, []string{
		"archived", "auto_devops_enabled", "avatar_url", "created_at", "default_branch", "default_branch_protection",
		"default_branch_protection_defaults", "description", "emails_disabled", "emails_enabled",
		"enabled_git_access_protocol", "full_name", "full_path", "id", "lfs_enabled",
		"lock_math_rendering_limits_enabled", "marked_for_deletion_on", "math_rendering_limits_enabled",
		"max_artifacts_size", "membership_lock", "mentions_disabled", "name", "organization_id", "parent_id", "path",
		"prevent_sharing_groups_outside_hierarchy", "project_creation_level", "projects", "request_access_enabled",
		"require_two_factor_authentication", "runners_token", "share_with_group_lock", "shared_projects",
		"shared_runners_setting", "shared_with_groups", "show_diff_preview_in_email", "subgroup_creation_level",
		"two_factor_grace_period", "visibility", "web_url",
	}, servertest.Keys(body))
	want := map[string]any{
		"name": "Team", "path": "team", "full_path": "team", "full_name": "Team", "description": "",
		"visibility": "private", "share_with_group_lock": false, "require_two_factor_authentication": false,
		"two_factor_grace_period": 48.0, "project_creation_level": "developer", "auto_devops_enabled": nil,
		"subgroup_creation_level": "maintainer", "emails_disabled": true, "emails_enabled": false,
		"show_diff_preview_in_email": true, "mentions_disabled": false, "lfs_enabled": true, "archived": false,
		"math_rendering_limits_enabled": true, "lock_math_rendering_limits_enabled": false, "default_branch": nil,
		"default_branch_protection": 2.0, "avatar_url": nil, "request_access_enabled": true, "parent_id": nil,
		"organization_id": 1.0, "shared_runners_setting": "enabled", "max_artifacts_size": nil,
		"marked_for_deletion_on": nil, "membership_lock": false, "shared_with_groups": []any{},
		"projects": []any{}, "shared_projects": []any{}, "web_url": in.URL + "/groups/team",
		"enabled_git_access_protocol": "all", "prevent_sharing_groups_outside_hierarchy": false,
		"default_branch_protection_defaults": map[string]any{
			"allowed_to_push":  []any{map[string]any{"access_level": 40.0}},
			"allowed_to_merge": []any{map[string]any{"access_level": 40.0}},
			"allow_force_push": false,
		},
	}
	for k, v := range want {
		assert.Equal(t, v, body[k], k)
	}
	assert.Regexp(t, `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`, body["created_at"])
}

func TestGroups_Create_errors(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	_, noGroups := in.NewUser(t, "nogroups", func(ci *users.CreateInput) { f := false; ci.CanCreateGroup = &f })
	devUser, devTok := in.NewUser(t, "dev")
	private := in.NewGroup(t, "secret", "private", nil)
	internal := in.NewGroup(t, "corp", "internal", nil)
	in.AddGroupMember(t, internal, devUser, 30)
	in.AddGroupMember(t, internal, alice, 40)
	taken := `{"message":"Failed to save group {:path=>[\"has already been taken\"]}"}`
	for _, tc := range []struct {
		desc, token, body string
		status            int
		want              string
	}{
		{"anonymous", "", `{"name":"x","path":"x"}`, 401, `{"message":"401 Unauthorized"}`},
		{"name and path missing", tok, `{}`, 400, `{"error":"name is missing, path is missing"}`},
		{"bad visibility", tok, `{"name":"x","path":"xx","visibility":"secret"}`, 400, `{"error":"visibility does not have a valid value"}`},
		{"bad creation level", tok, `{"name":"x","path":"xx","subgroup_creation_level":"developer"}`, 400, `{"error":"subgroup_creation_level does not have a valid value"}`},
		{"bad boolean", tok, `{"name":"x","path":"xx","lfs_enabled":"maybe"}`, 400, `{"error":"lfs_enabled is invalid"}`},
		{"path of a user namespace", tok, `{"name":"x","path":"Alice"}`, 400, taken},
		{"path of a group", tok, `{"name":"x","path":"corp"}`, 400, taken},
		{"bad path", tok, `{"name":"x","path":"-bad.git"}`, 400, `{"message":"Failed to save group {:path=>[\"can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.\"]}"}`},
		{"reserved top-level path", tok, `{"name":"x","path":"API"}`, 400, `{"message":"Failed to save group {:path=>[\"API is a reserved name\"]}"}`},
		{"short path and blank name", tok, `{"name":"","path":"a"}`, 400, `{"message":"Failed to save group {:name=>[\"can't be blank\"], :path=>[\"is too short (minimum is 2 characters)\"]}"}`},
		{"bad name", tok, `{"name":"-x","path":"xyz"}`, 400, `{"message":"Failed to save group {:name=>[\"can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.\"]}"}`},
		{"negative grace period", tok, `{"name":"x","path":"xyz","two_factor_grace_period":-1}`, 400, `{"message":"Failed to save group {:two_factor_grace_period=>[\"must be greater than or equal to 0\"]}"}`},
		{"cannot create groups", noGroups, `{"name":"x","path":"xyz"}`, 403, `{"message":"403 Forbidden"}`},
		{"invisible parent", tok, `{"name":"x","path":"xyz","parent_id":` + id(private) + `}`, 404, `{"message":"404 Group Not Found"}`},
		{"missing parent", tok, `{"name":"x","path":"xyz","parent_id":99999}`, 404, `{"message":"404 Group Not Found"}`},
		{"developer of parent", devTok, `{"name":"x","path":"xyz","parent_id":` + id(internal) + `}`, 403, `{"message":"403 Forbidden"}`},
		{"subgroup more visible than parent", tok, `{"name":"x","path":"xyz","visibility":"public","parent_id":` + id(internal) + `}`, 400,
			`{"message":"Failed to save group {:visibility_level=>[\"public is not allowed since the parent group has a internal visibility.\"]}"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", "/groups", tc.token, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
	t.Run("top-level words are free inside a group", func(t *testing.T) {
		r := in.Do(t, "POST", "/groups", tok, `{"name":"api","path":"api","parent_id":`+id(internal)+`}`)
		assert.Equal(t, http.StatusCreated, r.Status, r.String())
	})
	t.Run("subgroup name taken among siblings", func(t *testing.T) {
		in.NewGroup(t, "web", "internal", internal)
		r := in.Do(t, "POST", "/groups", tok, `{"name":"web","path":"web2","parent_id":`+id(internal)+`}`)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, `{"message":"Failed to save group {:name=>[\"has already been taken\"]}"}`, string(r.Body))
	})
	t.Run("subgroup path of a project", func(t *testing.T) {
		in.NewProject(t, internal, "api", "private")
		r := in.Do(t, "POST", "/groups", tok, `{"name":"API","path":"API","parent_id":`+id(internal)+`}`)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, taken, string(r.Body))
	})
	t.Run("maintainer of parent may create a subgroup", func(t *testing.T) {
		r := in.Do(t, "POST", "/groups", tok, `{"name":"Ops","path":"ops","parent_id":`+id(internal)+`}`)
		require.Equal(t, 201, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, "corp/ops", body["full_path"])
		assert.Equal(t, "corp / Ops", body["full_name"])
		assert.Nil(t, body["prevent_sharing_groups_outside_hierarchy"], "root groups only")
	})
	t.Run("default visibility follows the instance setting", func(t *testing.T) {
		require.NoError(t, in.Services.Settings.Set(context.Background(), "default_group_visibility", "internal"))
		r := in.Do(t, "POST", "/groups", tok, `{"name":"Docs","path":"docs"}`)
		require.Equal(t, 201, r.Status, r.String())
		assert.Equal(t, "internal", servertest.Decode[map[string]any](t, r)["visibility"])
		ns, err := in.DB.Client.Namespace.Query().Where(namespace.FullPath("docs")).Only(context.Background())
		require.NoError(t, err)
		assert.Equal(t, namespace.VisibilityInternal, ns.Visibility)
	})
	t.Run("form encoding and Grape booleans", func(t *testing.T) {
		r := in.Do(t, "POST", "/groups?name=Form&path=form-group&lfs_enabled=no&visibility=public", tok, nil)
		require.Equal(t, 201, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, false, body["lfs_enabled"])
		assert.Equal(t, "public", body["visibility"])
		assert.Regexp(t, regexp.MustCompile(`^GR1348941`), body["runners_token"])
	})
}
