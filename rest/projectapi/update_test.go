package projectapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/member"
	"anvil/ent/projectgrouplink"
	"anvil/ent/protectedbranch"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestProjects_update(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "up", "internal", nil)
	// Made through the API so that it has a repository whose HEAD can move.
	created, _, err := in.Client(t, servertest.RootToken).Projects.CreateProject(&gitlab.CreateProjectOptions{
		Path: gitlab.Ptr("proj"), NamespaceID: gitlab.Ptr(int64(g.ID))})
	require.NoError(t, err)
	p, err := in.DB.Client.Project.Get(t.Context(), int(created.ID))
	require.NoError(t, err)
	maint, maintTok := in.NewUser(t, "maint")
	owner, ownerTok := in.NewUser(t, "owner")
	in.AddProjectMember(t, p, maint, 40)
	in.AddProjectMember(t, p, owner, 50)
	in.NewProject(t, g, "other", "private")
	path := fmt.Sprintf("/projects/%d", p.ID)

	t.Run("client-go edit", func(t *testing.T) {
		got, _, err := in.Client(t, maintTok).Projects.EditProject(p.ID, &gitlab.EditProjectOptions{
			Description:                  gitlab.Ptr("edited"),
			ContainerRegistryAccessLevel: gitlab.Ptr(gitlab.PrivateAccessControl),
			Topics:                       &[]string{"x"},
			MergeMethod:                  gitlab.Ptr(gitlab.FastForwardMerge),
			DefaultBranch:                gitlab.Ptr("develop"),
		})
		require.NoError(t, err)
		assert.Equal(t, "edited", got.Description)
		assert.Equal(t, gitlab.PrivateAccessControl, got.ContainerRegistryAccessLevel)
		assert.Equal(t, []string{"x"}, got.Topics)
		assert.Equal(t, gitlab.FastForwardMerge, got.MergeMethod)
		assert.Equal(t, "develop", got.DefaultBranch)
		assert.Nil(t, got.Permissions, "PUT answers the plain Project entity")
	})
	for _, tc := range []struct {
		desc, token, body string
		status            int
		want              string
	}{
		{"no attributes", maintTok, `{}`, 400, ""},
		{"maintainer renames", maintTok, `{"name":"Renamed"}`, 403, `{"message":"403 Forbidden"}`},
		{"maintainer changes visibility", maintTok, `{"visibility":"internal"}`, 403, `{"message":"403 Forbidden"}`},
		{"maintainer changes the path", maintTok, `{"path":"moved"}`, 200, ""},
		{"owner renames", ownerTok, `{"name":"Renamed"}`, 200, ""},
		{"visibility above the group's", ownerTok, `{"visibility":"public"}`, 400,
			`{"message":{"visibility_level":["public is not allowed in a internal group."]}}`},
		{"owner changes visibility", ownerTok, `{"visibility":"internal"}`, 200, ""},
		{"path taken", ownerTok, `{"path":"other"}`, 400, `{"message":{"path":["has already been taken"]}}`},
		{"unknown visibility", ownerTok, `{"visibility":"nope"}`, 400, `{"error":"visibility does not have a valid value"}`},
		{"bad ci_config_path", ownerTok, `{"ci_config_path":"../x.yml"}`, 400,
			`{"message":{"ci_config_path":["cannot include leading slash or directory traversal."]}}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "PUT", path, tc.token, tc.body)
			require.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
		})
	}
	t.Run("no attributes names them all", func(t *testing.T) {
		r := in.Do(t, "PUT", path, ownerTok, `{"unknown":1}`)
		body := servertest.Decode[map[string]string](t, r)
		assert.True(t, strings.HasPrefix(body["error"], "allow_merge_on_skipped_pipeline, analytics_access_level, "), body["error"])
		assert.True(t, strings.HasSuffix(body["error"], "container_registry_enabled are missing, at least one parameter must be provided"), body["error"])
	})
	t.Run("the renamed path keeps the id", func(t *testing.T) {
		r := in.Do(t, "GET", "/projects/up%2Fmoved", ownerTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, float64(p.ID), body["id"])
		assert.Equal(t, "Renamed", body["name"])
		assert.Equal(t, "internal", body["visibility"])
		// The old path redirects to the project, as GitLab's redirect routes do.
		old := noRedirect(t, in, "GET", "/projects/up%2Fproj", ownerTok)
		assert.Equal(t, http.StatusMovedPermanently, old.StatusCode)
		assert.Equal(t, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, p.ID), old.Header.Get("Location"))
	})
}

func TestProjects_delete(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "deleter")
	g := in.NewGroup(t, "friends", "public", nil)
	p, _, err := in.Client(t, tok).Projects.CreateProject(&gitlab.CreateProjectOptions{Name: gitlab.Ptr("doomed")})
	require.NoError(t, err)
	fork := in.NewProject(t, in.PersonalNamespace(t, u), "fork", "private")
	require.NoError(t, in.DB.Client.Project.UpdateOne(fork).SetForkedFromID(int(p.ID)).Exec(t.Context()))
	r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", p.ID), tok, fmt.Sprintf(`{"group_id":%d,"group_access":30}`, g.ID))
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	// Another domain's rows (a protection rule) go through its delete hook.
	r = in.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", p.ID), tok, `{"name":"release/*"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	resp, err := in.Client(t, tok).Projects.DeleteProject(p.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)

	ctx := t.Context()
	n, err := in.DB.Client.ProtectedBranch.Query().Where(protectedbranch.ProjectID(int(p.ID))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "the other domains' rows are gone")
	n, err = in.DB.Client.Member.Query().Where(member.ProjectID(int(p.ID))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "memberships are gone")
	n, err = in.DB.Client.ProjectGroupLink.Query().Where(projectgrouplink.ProjectID(int(p.ID))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "shares are gone")
	f, err := in.DB.Client.Project.Get(ctx, fork.ID)
	require.NoError(t, err)
	assert.Nil(t, f.ForkedFromID, "forks are detached")
	_, _, err = in.Client(t, tok).Projects.GetProject(p.ID, nil)
	assert.ErrorIs(t, err, gitlab.ErrNotFound)
	r = in.Do(t, "DELETE", fmt.Sprintf("/projects/%d", p.ID), tok, nil)
	assert.Equal(t, http.StatusNotFound, r.Status)
}

// TestProjects_update_nullClears: a JSON null asks to clear the attribute, and counts as a
// given parameter for "at least one parameter must be provided", as Grape counts keys.
func TestProjects_update_nullClears(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "clearer")
	r := in.Do(t, "POST", "/projects", tok, `{"path":"described","description":"some words"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	id := int(servertest.Decode[map[string]any](t, r)["id"].(float64))
	assert.Equal(t, "some words", servertest.Decode[map[string]any](t, r)["description"])

	r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", id), tok, `{"description":null}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Nil(t, servertest.Decode[map[string]any](t, r)["description"])
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", id), tok, nil)
	assert.Nil(t, servertest.Decode[map[string]any](t, r)["description"])

	r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", id), tok, `{}`)
	assert.Equal(t, http.StatusBadRequest, r.Status, "an empty body still gives nothing")
}
