package groupapi_test

import (
	"context"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/namespace"
	"anvil/ent/project"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroups_Update_renameMovesDescendants(t *testing.T) {
	in := servertest.Start(t)
	owner, tok := in.NewUser(t, "owner")
	top := in.NewGroup(t, "old", "public", nil)
	sub := in.NewGroup(t, "sub", "public", top)
	deep := in.NewGroup(t, "deep", "private", sub)
	other := in.NewGroup(t, "older", "public", nil) // shares a prefix, must not move
	in.AddGroupMember(t, top, owner, 50)
	p := in.NewProject(t, deep, "app", "private")

	g, _, err := in.Client(t, tok).Groups.UpdateGroup(top.ID, &gitlab.UpdateGroupOptions{
		Path: gitlab.Ptr("new"), Name: gitlab.Ptr("New Name"), Description: gitlab.Ptr("moved"),
	})
	require.NoError(t, err)
	assert.Equal(t, "new", g.Path)
	assert.Equal(t, "new", g.FullPath)
	assert.Equal(t, "New Name", g.FullName)
	assert.Equal(t, "moved", g.Description)

	ctx := context.Background()
	for want, nsID := range map[string]int{"new/sub": sub.ID, "new/sub/deep": deep.ID, "older": other.ID} {
		ns, err := in.DB.Client.Namespace.Get(ctx, nsID)
		require.NoError(t, err)
		assert.Equal(t, want, ns.FullPath)
	}
	r := in.Do(t, "GET", "/groups/new%2Fsub%2Fdeep", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "New Name / sub / deep", servertest.Decode[map[string]any](t, r)["full_name"])
	assert.Equal(t, 404, in.Do(t, "GET", "/groups/old%2Fsub", tok, nil).Status)
	proj, err := in.Services.Projects.Lookup(ctx, "new/sub/deep/app")
	require.NoError(t, err)
	assert.Equal(t, p.ID, proj.ID)
}

func TestGroups_Update_rules(t *testing.T) {
	in := servertest.Start(t)
	owner, tok := in.NewUser(t, "owner")
	top := in.NewGroup(t, "top", "internal", nil)
	sub := in.NewGroup(t, "sub", "internal", top)
	sibling := in.NewGroup(t, "sibling", "private", top)
	withProject := in.NewGroup(t, "withproj", "public", nil)
	in.NewProject(t, withProject, "site", "public")
	in.NewGroup(t, "taken", "private", nil)
	loose := in.NewGroup(t, "loose", "public", nil) // a fixture below the rules: public project in a private subgroup
	in.NewProject(t, in.NewGroup(t, "closed", "private", loose), "open", "public")
	in.AddGroupMember(t, loose, owner, 50)
	for _, g := range []int{top.ID, withProject.ID} {
		ns, _ := in.DB.Client.Namespace.Get(context.Background(), g)
		in.AddGroupMember(t, ns, owner, 50)
	}
	for _, tc := range []struct {
		desc, ref, body string
		status          int
		want            string
	}{
		{"less visible than a subgroup", id(top), `{"visibility":"private"}`, 400,
			`{"message":{"visibility_level":["private is not allowed since there are sub-groups with higher visibility."]}}`},
		{"more visible than the parent", id(sub), `{"visibility":"public"}`, 400,
			`{"message":{"visibility_level":["public is not allowed since the parent group has a internal visibility."]}}`},
		{"less visible than a project deeper down", id(loose), `{"visibility":"internal"}`, 400,
			`{"message":{"visibility_level":["internal is not allowed since this group contains projects with higher visibility."]}}`},
		{"less visible than a project", id(withProject), `{"visibility":"internal"}`, 400,
			`{"message":{"visibility_level":["internal is not allowed since this group contains projects with higher visibility."]}}`},
		{"path taken", id(withProject), `{"path":"Taken"}`, 400, `{"message":{"path":["has already been taken"]}}`},
		{"sibling name taken", id(sub), `{"name":"sibling"}`, 400, `{"message":{"name":["has already been taken"]}}`},
		{"sibling path taken", id(sub), `{"path":"sibling"}`, 400, `{"message":{"path":["has already been taken"]}}`},
		{"reserved top-level path", id(top), `{"path":"dashboard"}`, 400, `{"message":{"path":["dashboard is a reserved name"]}}`},
		{"bad path", id(sub), `{"path":"a b"}`, 400, `{"message":{"path":["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}}`},
		{"bad enum", id(sub), `{"project_creation_level":"everyone"}`, 400, `{"error":"project_creation_level does not have a valid value"}`},
		{"shared runners on a subgroup while the parent allows them", id(sibling), `{"shared_runners_setting":"enabled"}`, 200, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "PUT", "/groups/"+tc.ref, tok, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
		})
	}

	t.Run("shared runners disabled without override cascade", func(t *testing.T) {
		r := in.Do(t, "PUT", "/groups/"+id(top), tok, `{"shared_runners_setting":"disabled_and_unoverridable"}`)
		require.Equal(t, 200, r.Status, r.String())
		ctx := context.Background()
		for _, nsID := range []int{sub.ID, sibling.ID} {
			ns, err := in.DB.Client.Namespace.Get(ctx, nsID)
			require.NoError(t, err)
			assert.Equal(t, "disabled_and_unoverridable", ns.SharedRunnersSetting)
		}
		r = in.Do(t, "PUT", "/groups/"+id(sub), tok, `{"shared_runners_setting":"enabled"}`)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, `{"message":{"shared_runners_enabled":["cannot be enabled because parent group has shared Runners disabled"]}}`, string(r.Body))
		r = in.Do(t, "PUT", "/groups/"+id(sub), tok, `{"shared_runners_setting":"disabled_with_override"}`)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, `{"message":{"allow_descendants_override_disabled_shared_runners":["cannot be enabled because parent group does not allow it"]}}`, string(r.Body))
		p := in.NewProject(t, sub, "runner-proj", "private")
		r = in.Do(t, "PUT", "/groups/"+id(top), tok, `{"shared_runners_setting":"disabled_and_unoverridable"}`)
		require.Equal(t, 200, r.Status)
		got, err := in.DB.Client.Project.Query().Where(project.ID(p.ID)).Only(ctx)
		require.NoError(t, err)
		assert.False(t, got.SharedRunnersEnabled)
	})

	t.Run("share_with_group_lock", func(t *testing.T) {
		ctx := context.Background()
		maint, maintTok := in.NewUser(t, "maint")
		in.AddGroupMember(t, top, maint, 40)
		in.AddGroupMember(t, sub, maint, 50) // owns the subgroup only
		r := in.Do(t, "PUT", "/groups/"+id(top), tok, `{"share_with_group_lock":true}`)
		require.Equal(t, 200, r.Status, r.String())
		ns, err := in.DB.Client.Namespace.Query().Where(namespace.ID(sub.ID)).Only(ctx)
		require.NoError(t, err)
		assert.True(t, ns.ShareWithGroupLock, "locking cascades to descendants")
		r = in.Do(t, "PUT", "/groups/"+id(sub), maintTok, `{"share_with_group_lock":false}`)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, `{"message":{"share_with_group_lock":["cannot be disabled when the parent group \"Share with group lock\" is enabled, except by the owner of the parent group"]}}`, string(r.Body))
		r = in.Do(t, "PUT", "/groups/"+id(sub), tok, `{"share_with_group_lock":false}`)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, false, servertest.Decode[map[string]any](t, r)["share_with_group_lock"])
	})

	t.Run("settings round trip", func(t *testing.T) {
		g, resp, err := in.Client(t, tok).Groups.UpdateGroup(withProject.ID, &gitlab.UpdateGroupOptions{
			EmailsDisabled: gitlab.Ptr(true), RequestAccessEnabled: gitlab.Ptr(false),
			SubGroupCreationLevel: gitlab.Ptr(gitlab.OwnerSubGroupCreationLevelValue),
			AutoDevopsEnabled:     gitlab.Ptr(false), DefaultBranch: gitlab.Ptr("main"),
			SharedRunnersSetting: gitlab.Ptr(gitlab.DisabledAndOverridableSharedRunnersSettingValue),
		})
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.False(t, g.EmailsEnabled)
		assert.False(t, g.RequestAccessEnabled)
		assert.Equal(t, gitlab.OwnerSubGroupCreationLevelValue, g.SubGroupCreationLevel)
		assert.False(t, g.AutoDevopsEnabled)
		assert.Equal(t, "main", g.DefaultBranch)
		assert.Equal(t, gitlab.DisabledAndOverridableSharedRunnersSettingValue, g.SharedRunnersSetting)
		assert.NotEmpty(t, g.RunnersToken)
		r := in.Do(t, "GET", "/groups/"+id(withProject), tok, nil)
		assert.Equal(t, false, servertest.Decode[map[string]any](t, r)["auto_devops_enabled"], "explicit false is not null")
	})
}

func TestGroups_Update_nullClearsDescription(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "owner")
	r := in.Do(t, "POST", "/groups", tok, `{"name":"Described","path":"described","description":"words"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.Equal(t, "words", servertest.Decode[map[string]any](t, r)["description"])
	r = in.Do(t, "PUT", "/groups/described", tok, `{"description":null}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "", servertest.Decode[map[string]any](t, r)["description"], "a group's cleared description reads as an empty string")
}
