package memberapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// relWorld is org/team/app (all private): alice Developer of org, bob Maintainer of team, carol
// a Reporter of the project, dave Minimal Access on org, henry an expired member of the project.
// The project is shared with the public group partners (erin, Reporter share) and the private
// group hidden (frank, Developer share); org is shared with allies (greg).
type relWorld struct {
	in                                  *servertest.Instance
	org, team, partners, hidden, allies *ent.Namespace
	app                                 *ent.Project
	u                                   map[string]*ent.User
	tok                                 map[string]string
}

func newRelWorld(t *testing.T) *relWorld {
	t.Helper()
	in := servertest.Start(t)
	ctx := context.Background()
	w := &relWorld{in: in, u: map[string]*ent.User{}, tok: map[string]string{}}
	for _, name := range []string{"alice", "bob", "carol", "dave", "erin", "frank", "greg", "henry", "outsider"} {
		w.u[name], w.tok[name] = in.NewUser(t, name)
	}
	w.org = in.NewGroup(t, "org", "private", nil)
	w.team = in.NewGroup(t, "team", "private", w.org)
	w.partners = in.NewGroup(t, "partners", "public", nil)
	w.hidden = in.NewGroup(t, "hidden", "private", nil)
	w.allies = in.NewGroup(t, "allies", "private", nil)
	w.app = in.NewProject(t, w.team, "app", "private")
	in.AddGroupMember(t, w.org, w.u["alice"], 30)
	in.AddGroupMember(t, w.team, w.u["bob"], 40)
	in.AddProjectMember(t, w.app, w.u["carol"], 20)
	in.AddGroupMember(t, w.org, w.u["dave"], 5)
	in.AddGroupMember(t, w.partners, w.u["erin"], 30)
	in.AddGroupMember(t, w.hidden, w.u["frank"], 30)
	in.AddGroupMember(t, w.allies, w.u["greg"], 50)
	c := in.DB.Client
	require.NoError(t, c.Member.Create().SetProjectID(w.app.ID).SetUserID(w.u["henry"].ID).SetAccessLevel(30).
		SetExpiresAt(time.Now().AddDate(0, 0, -3)).Exec(ctx))
	require.NoError(t, c.ProjectGroupLink.Create().SetProjectID(w.app.ID).SetGroupID(w.partners.ID).SetGroupAccess(20).Exec(ctx))
	require.NoError(t, c.ProjectGroupLink.Create().SetProjectID(w.app.ID).SetGroupID(w.hidden.ID).SetGroupAccess(30).Exec(ctx))
	require.NoError(t, c.GroupGroupLink.Create().SetSharedGroupID(w.org.ID).SetSharedWithGroupID(w.allies.ID).SetGroupAccess(30).Exec(ctx))
	return w
}

func field(t *testing.T, r *servertest.Response, key string) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &rows), r.String())
	out := []string{}
	for _, row := range rows {
		out = append(out, fmt.Sprint(row[key]))
	}
	return out
}

func TestProjectUsers(t *testing.T) {
	w := newRelWorld(t)
	in := w.in
	path := fmt.Sprintf("/projects/%d/users", w.app.ID)
	// Everyone with access, by user id: direct, inherited, invited groups and the groups the
	// project's ancestors are shared with; not Minimal Access, not expired memberships.
	all := []string{"alice", "bob", "carol", "erin", "frank", "greg"}
	assert.Equal(t, all, field(t, in.Do(t, "GET", path, w.tok["alice"], nil), "username"))
	assert.Equal(t, all, field(t, in.Do(t, "GET", "/projects/org%2Fteam%2Fapp/users", servertest.RootToken, nil), "username"))
	assert.Equal(t, []string{"carol"}, field(t, in.Do(t, "GET", path+"?search=car", w.tok["alice"], nil), "username"))
	skip := fmt.Sprintf("?skip_users=%d,%d", w.u["alice"].ID, w.u["greg"].ID)
	assert.Equal(t, []string{"bob", "carol", "erin", "frank"}, field(t, in.Do(t, "GET", path+skip, w.tok["alice"], nil), "username"))
	r := in.Do(t, "GET", path+"?per_page=2&page=2", w.tok["bob"], nil)
	assert.Equal(t, []string{"carol", "erin"}, field(t, r, "username"))
	assert.Equal(t, "6", r.Header.Get("X-Total"))

	// UserBasic, exactly.
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(in.Do(t, "GET", path+"?search=bob", w.tok["alice"], nil).Body, &rows))
	require.Len(t, rows, 1)
	assert.Equal(t, []string{"avatar_url", "id", "locked", "name", "state", "username", "web_url"}, sortedKeys(rows[0]))

	t.Run("personal project", func(t *testing.T) {
		p := in.NewProject(t, in.PersonalNamespace(t, w.u["outsider"]), "mine", "public")
		assert.Equal(t, []string{"outsider"}, field(t, in.Do(t, "GET", fmt.Sprintf("/projects/%d/users", p.ID), "", nil), "username"))
	})
	t.Run("refusals", func(t *testing.T) {
		servertest.RequireError(t, in.Do(t, "GET", path, w.tok["outsider"], nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, in.Do(t, "GET", path, "", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, in.Do(t, "GET", path+"?skip_users=x", w.tok["alice"], nil), 400, "error", "skip_users is invalid")
	})
}

func TestProjectGroups(t *testing.T) {
	w := newRelWorld(t)
	in := w.in
	path := fmt.Sprintf("/projects/%d/groups", w.app.ID)
	get := func(q, who string) []string {
		t.Helper()
		return field(t, in.Do(t, "GET", path+q, w.tok[who], nil), "full_path")
	}
	// The project's group and its ancestors, newest first.
	assert.Equal(t, []string{"org/team", "org"}, get("", "carol"))
	assert.Equal(t, []string{"hidden", "partners", "org/team", "org"}, get("?with_shared=true", "carol"))
	// shared_visible_only keeps the shared groups the caller may see: hidden is private.
	assert.Equal(t, []string{"partners", "org/team", "org"}, get("?with_shared=true&shared_visible_only=true", "carol"))
	assert.Equal(t, []string{"hidden", "partners", "org/team", "org"}, get("?with_shared=true&shared_visible_only=true", "frank"))
	assert.Equal(t, []string{"hidden", "org/team", "org"}, get("?with_shared=true&shared_min_access_level=30", "carol"))
	assert.Equal(t, []string{"org"}, get(fmt.Sprintf("?skip_groups[]=%d", w.team.ID), "carol"))
	assert.Equal(t, []string{"org/team"}, get("?search=team", "carol"))

	var rows []map[string]any
	require.NoError(t, json.Unmarshal(in.Do(t, "GET", path+"?search=team", w.tok["carol"], nil).Body, &rows))
	assert.Equal(t, map[string]any{
		"id": float64(w.team.ID), "web_url": in.URL + "/groups/org/team", "name": "team", "avatar_url": nil,
		"full_name": "org / team", "full_path": "org/team",
	}, rows[0])

	servertest.RequireError(t, in.Do(t, "GET", path, w.tok["outsider"], nil), 404, "message", "404 Project Not Found")
	servertest.RequireError(t, in.Do(t, "GET", path+"?shared_min_access_level=7", w.tok["carol"], nil), 400, "error", "shared_min_access_level does not have a valid value")
}

func TestProjectInvitedGroups(t *testing.T) {
	w := newRelWorld(t)
	in := w.in
	path := fmt.Sprintf("/projects/%d/invited_groups", w.app.ID)
	get := func(q, token string) []string {
		t.Helper()
		return field(t, in.Do(t, "GET", path+q, token, nil), "full_path")
	}
	// Direct shares and the shares of the project's ancestors, as far as the caller may see.
	assert.Equal(t, []string{"allies", "hidden", "partners"}, get("", servertest.RootToken))
	assert.Equal(t, []string{"partners"}, get("", w.tok["carol"]))
	assert.Equal(t, []string{"allies", "partners"}, get("", w.tok["greg"]))
	assert.Equal(t, []string{"hidden", "partners"}, get("?relation=direct", servertest.RootToken))
	assert.Equal(t, []string{"allies"}, get("?relation=inherited", servertest.RootToken))
	assert.Equal(t, []string{"allies", "hidden", "partners"}, get("?relation=direct,inherited", servertest.RootToken))
	assert.Equal(t, []string{"partners"}, get("?search=part", servertest.RootToken))
	// min_access_level is the caller's own level in the invited group.
	assert.Equal(t, []string{"allies"}, get("?min_access_level=50", w.tok["greg"]))
	assert.Empty(t, get("?min_access_level=40", w.tok["carol"]))

	// Administrators may ask for custom attributes.
	require.NoError(t, in.DB.Client.GroupCustomAttribute.Create().SetGroupID(w.partners.ID).SetKey("tier").SetValue("gold").Exec(context.Background()))
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(in.Do(t, "GET", path+"?relation=direct&with_custom_attributes=true", servertest.RootToken, nil).Body, &rows))
	assert.Equal(t, []any{}, rows[0]["custom_attributes"])
	assert.Equal(t, []any{map[string]any{"key": "tier", "value": "gold"}}, rows[1]["custom_attributes"])
	rows = nil
	require.NoError(t, json.Unmarshal(in.Do(t, "GET", path+"?with_custom_attributes=true", w.tok["carol"], nil).Body, &rows))
	assert.NotContains(t, rows[0], "custom_attributes")

	servertest.RequireError(t, in.Do(t, "GET", path+"?relation=sideways", w.tok["carol"], nil), 400, "error", "relation does not have a valid value")
	servertest.RequireError(t, in.Do(t, "GET", path, w.tok["outsider"], nil), 404, "message", "404 Project Not Found")

	gl := in.Client(t, w.tok["carol"])
	groups, _, err := gl.Projects.ListProjectsInvitedGroups(w.app.ID, &gitlab.ListProjectInvitedGroupOptions{})
	require.NoError(t, err)
	require.Len(t, groups, 1)
	assert.Equal(t, "partners", groups[0].FullPath)
}

func TestUserMemberships(t *testing.T) {
	w := newRelWorld(t)
	in := w.in
	type row = map[string]any
	get := func(path string) []row {
		t.Helper()
		r := in.Do(t, "GET", path, servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		var rows []row
		require.NoError(t, json.Unmarshal(r.Body, &rows))
		return rows
	}
	in.AddProjectMember(t, w.app, w.u["alice"], 40)
	alice := fmt.Sprintf("/users/%d/memberships", w.u["alice"].ID)
	assert.Equal(t, []row{
		{"source_id": float64(w.org.ID), "source_name": "org", "source_type": "Namespace", "access_level": float64(30)},
		{"source_id": float64(w.app.ID), "source_name": "app", "source_type": "Project", "access_level": float64(40)},
	}, get(alice))
	assert.Len(t, get(alice+"?type=Project"), 1)
	assert.Equal(t, "Namespace", get(alice + "?type=Namespace")[0]["source_type"])
	// An expired membership is gone.
	assert.Empty(t, get(fmt.Sprintf("/users/%d/memberships", w.u["henry"].ID)))

	servertest.RequireError(t, in.Do(t, "GET", alice, w.tok["alice"], nil), 403, "message", "403 Forbidden")
	servertest.RequireError(t, in.Do(t, "GET", alice, "", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, in.Do(t, "GET", "/users/999999/memberships", servertest.RootToken, nil), 404, "message", "404 User Not Found")
	servertest.RequireError(t, in.Do(t, "GET", "/users/x/memberships", servertest.RootToken, nil), 400, "error", "user_id is invalid")
	servertest.RequireError(t, in.Do(t, "GET", alice+"?type=Group", servertest.RootToken, nil), 400, "error", "type does not have a valid value")

	gl := in.Client(t, servertest.RootToken)
	ms, _, err := gl.Users.GetUserMemberships(int64(w.u["alice"].ID), &gitlab.GetUserMembershipOptions{Type: gitlab.Ptr("Project")})
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "app", ms[0].SourceName)
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
