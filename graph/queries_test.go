package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// world is a small instance: a public group with a public and a private project, a private
// group with a private project, and users with different reach.
type world struct {
	in                  *servertest.Instance
	alice, bob          string // tokens: alice belongs to the private group, bob to nothing
	pubApp, secretProj  string // global ids
	secretGroupID       int
	aliceID, privateApp int
}

func newWorld(t *testing.T) *world {
	in := servertest.Start(t)
	pub := in.NewGroup(t, "pub", "public", nil)
	secret := in.NewGroup(t, "secret", "private", nil)
	app := in.NewProject(t, pub, "app", "public")
	hidden := in.NewProject(t, pub, "hidden", "private")
	proj := in.NewProject(t, secret, "proj", "private")
	alice, aliceToken := in.NewUser(t, "alice")
	_, bobToken := in.NewUser(t, "bob")
	in.AddGroupMember(t, secret, alice, 30)
	return &world{
		in: in, alice: aliceToken, bob: bobToken,
		pubApp:        fmt.Sprintf("gid://gitlab/Project/%d", app.ID),
		secretProj:    fmt.Sprintf("gid://gitlab/Project/%d", proj.ID),
		secretGroupID: secret.ID, aliceID: alice.ID, privateApp: hidden.ID,
	}
}

// viewers are the callers every visibility check runs as.
func (w *world) viewers() []struct{ name, token string } {
	return []struct{ name, token string }{{"anonymous", ""}, {"non-member", w.bob}, {"member", w.alice}, {"admin", servertest.RootToken}}
}

// TestWorld runs the read checks that share the small world: visibility parity with REST,
// global ids and the fields of groups, projects and members.
func TestWorld(t *testing.T) {
	w := newWorld(t)
	t.Run("visibility parity with REST", func(t *testing.T) { testVisibility(t, w) })
	t.Run("global ids round-trip through node", func(t *testing.T) { testGlobalIDs(t, w) })
	t.Run("group and project fields", func(t *testing.T) { testFields(t, w) })
}

func testVisibility(t *testing.T, w *world) {
	visible := map[string][]string{
		"anonymous": {"pub/app"}, "non-member": {"pub/app"},
		"member": {"pub/app", "secret/proj"}, "admin": {"pub/app", "pub/hidden", "secret/proj"},
	}
	for _, v := range w.viewers() {
		t.Run(v.name, func(t *testing.T) {
			// project(fullPath:) is null exactly when REST answers 404.
			for _, fullPath := range []string{"pub/app", "pub/hidden", "secret/proj"} {
				rest := w.in.Do(t, "GET", "/projects/"+url.PathEscape(fullPath), v.token, nil)
				got := data(t, w.in, v.token, `query($p: ID!) { project(fullPath: $p) { fullPath } }`, map[string]any{"p": fullPath})
				if rest.Status == http.StatusNotFound {
					assert.Nil(t, got["project"], fullPath)
				} else {
					require.Equal(t, http.StatusOK, rest.Status, rest.String())
					assert.Equal(t, map[string]any{"fullPath": fullPath}, got["project"], fullPath)
				}
			}
			// group(fullPath:) likewise.
			for _, fullPath := range []string{"pub", "secret"} {
				rest := w.in.Do(t, "GET", "/groups/"+fullPath, v.token, nil)
				got := data(t, w.in, v.token, `query($p: ID!) { group(fullPath: $p) { fullPath } }`, map[string]any{"p": fullPath})
				assert.Equal(t, rest.Status == http.StatusOK, got["group"] != nil, fullPath)
			}
			assert.Equal(t, visible[v.name], gqlPaths(t, w.in, v.token, `{ projects { nodes { fullPath } } }`, "projects"))
			// projects and groups list what REST lists.
			assert.Equal(t, restPaths(t, w.in, v.token, "/projects?per_page=100", "path_with_namespace"),
				gqlPaths(t, w.in, v.token, `{ projects { nodes { fullPath } } }`, "projects"))
			assert.Equal(t, restPaths(t, w.in, v.token, "/groups?per_page=100&all_available=true", "full_path"),
				gqlPaths(t, w.in, v.token, `{ groups { nodes { fullPath } } }`, "groups"))
			// projects(ids:) and projects(membership:) keep to what the caller sees.
			byIDs := data(t, w.in, v.token, `query($ids: [ID!]) { projects(ids: $ids) { nodes { id } } }`,
				map[string]any{"ids": []string{w.pubApp, w.secretProj}})
			// GitLab's default order is id_desc: the newer project first.
			wantIDs := []any{map[string]any{"id": w.pubApp}}
			if v.name == "member" || v.name == "admin" {
				wantIDs = append([]any{map[string]any{"id": w.secretProj}}, wantIDs...)
			}
			assert.Equal(t, wantIDs, path(byIDs, "projects", "nodes"))
			mine := gqlPaths(t, w.in, v.token, `{ projects(membership: true) { nodes { fullPath } } }`, "projects")
			if v.name == "member" {
				assert.Equal(t, []string{"secret/proj"}, mine)
			} else if v.name != "admin" {
				assert.Empty(t, mine)
			}
			// node(id:) of a private project is null for those who cannot see it.
			got := data(t, w.in, v.token, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": w.secretProj})
			if v.name == "member" || v.name == "admin" {
				assert.Equal(t, map[string]any{"id": w.secretProj}, got["node"])
			} else {
				assert.Nil(t, got["node"])
			}
		})
	}
}

// restPaths lists a REST collection's key values, sorted.
func restPaths(t *testing.T, in *servertest.Instance, token, path, key string) []string {
	t.Helper()
	r := in.Do(t, "GET", path, token, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &rows))
	out := []string{}
	for _, row := range rows {
		out = append(out, row[key].(string))
	}
	sort.Strings(out)
	return out
}

// gqlPaths lists a connection's fullPath values, sorted.
func gqlPaths(t *testing.T, in *servertest.Instance, token, query, field string) []string {
	t.Helper()
	out := []string{}
	for _, n := range path(data(t, in, token, query, nil), field, "nodes").([]any) {
		out = append(out, n.(map[string]any)["fullPath"].(string))
	}
	sort.Strings(out)
	return out
}

func testGlobalIDs(t *testing.T, w *world) {
	d := data(t, w.in, servertest.RootToken, `{
		currentUser { id }
		project(fullPath: "secret/proj") { id group { id } namespace { id } }
		group(fullPath: "secret") { id groupMembers { nodes { id user { id } } } }
	}`, nil)
	userID := path(d, "currentUser", "id").(string)
	projectID := path(d, "project", "id").(string)
	groupID := path(d, "group", "id").(string)
	assert.Equal(t, "gid://gitlab/User/1", userID)
	assert.Equal(t, w.secretProj, projectID)
	assert.Equal(t, "gid://gitlab/Group/"+strconv.Itoa(w.secretGroupID), groupID)
	assert.Equal(t, groupID, path(d, "project", "group", "id"))
	assert.Equal(t, groupID, path(d, "project", "namespace", "id"))
	assert.Regexp(t, `^gid://gitlab/GroupMember/\d+$`, path(d, "group", "groupMembers", "nodes", 0, "id"))
	assert.Equal(t, "gid://gitlab/User/"+strconv.Itoa(w.aliceID), path(d, "group", "groupMembers", "nodes", 0, "user", "id"))

	memberID := path(d, "group", "groupMembers", "nodes", 0, "id").(string)
	for _, id := range []string{userID, projectID, groupID, memberID} {
		got := data(t, w.in, servertest.RootToken, `query($id: ID!) { node(id: $id) { id __typename } }`, map[string]any{"id": id})
		assert.Equal(t, id, path(got, "node", "id"))
	}
	t.Run("members are visible to those who may list them", func(t *testing.T) {
		query := `query($id: ID!) { node(id: $id) { id ... on Member { accessLevel { integerValue } } } }`
		wrongModel := strings.Replace(memberID, "GroupMember", "ProjectMember", 1)
		for token, want := range map[string]any{
			w.alice: map[string]any{"id": memberID, "accessLevel": map[string]any{"integerValue": float64(30)}},
			w.bob:   nil, "": nil,
		} {
			assert.Equal(t, want, data(t, w.in, token, query, map[string]any{"id": memberID})["node"])
		}
		assert.Nil(t, data(t, w.in, w.alice, query, map[string]any{"id": wrongModel})["node"])
	})
	got := data(t, w.in, servertest.RootToken, `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Project { fullPath } ... on User { username } } }`,
		map[string]any{"ids": []string{projectID, userID, "gid://gitlab/Project/999", "gid://gitlab/Issue/1"}})
	assert.Equal(t, []any{
		map[string]any{"id": projectID, "fullPath": "secret/proj"},
		map[string]any{"id": userID, "username": "root"},
		nil, nil,
	}, got["nodes"])

	t.Run("personal namespaces have their own model", func(t *testing.T) {
		d := data(t, w.in, w.alice, `mutation { projectCreate(input: {name: "mine"}) { project { fullPath namespace { id kind } group { id } } errors } }`, nil)
		assert.Equal(t, "alice/mine", path(d, "projectCreate", "project", "fullPath"))
		assert.Regexp(t, `^gid://gitlab/Namespaces::UserNamespace/\d+$`, path(d, "projectCreate", "project", "namespace", "id"))
		assert.Equal(t, "user", path(d, "projectCreate", "project", "namespace", "kind"))
		assert.Nil(t, path(d, "projectCreate", "project", "group"))
	})
}

func testInvalidGlobalIDs(t *testing.T, in *servertest.Instance) {
	for _, tc := range []struct{ desc, query, want string }{
		{"malformed", `{ node(id: "gid://gitlab/Project/abc") { id } }`,
			`{"errors":[{"message":"gid://gitlab/Project/abc is not a valid GitLab ID.","path":["node"],"locations":[{"line":1,"column":3}],"extensions":{"code":"BAD_USER_INPUT"}}],"data":{"node":null}}`},
		{"not a gid at all", `{ nodes(ids: ["1"]) { id } }`,
			`{"errors":[{"message":"1 is not a valid GitLab ID.","path":["nodes"],"locations":[{"line":1,"column":3}],"extensions":{"code":"BAD_USER_INPUT"}}],"data":null}`},
		{"wrong model", `{ user(id: "gid://gitlab/Project/1") { id } }`,
			`{"errors":[{"message":"gid://gitlab/Project/1 is not a valid ID for User.","path":["user"],"locations":[{"line":1,"column":3}],"extensions":{"code":"BAD_USER_INPUT"}}],"data":{"user":null}}`},
		{"wrong model in a list", `{ projects(ids: ["gid://gitlab/User/1"]) { count } }`,
			`{"errors":[{"message":"gid://gitlab/User/1 is not a valid ID for Project.","path":["projects"],"locations":[{"line":1,"column":3}],"extensions":{"code":"BAD_USER_INPUT"}}],"data":{"projects":null}}`},
		{"id and username", `{ user(id: "gid://gitlab/User/1", username: "root") { id } }`,
			`{"errors":[{"message":"Provide either a single username or id","path":["user"],"locations":[{"line":1,"column":3}],"extensions":{"code":"BAD_USER_INPUT"}}],"data":{"user":null}}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assertJSON(t, gql(t, in, servertest.RootToken, tc.query, nil), http.StatusOK, tc.want)
		})
	}
}

func TestUsers(t *testing.T) {
	in := servertest.Start(t)
	alice, _ := in.NewUser(t, "alice")
	gid := fmt.Sprintf("gid://gitlab/User/%d", alice.ID)
	want := map[string]any{
		"id": gid, "username": "alice", "name": "User alice", "state": "active",
		"webUrl": in.URL + "/alice", "webPath": "/alice", "publicEmail": "", "bio": "", "location": "",
		"avatarUrl": "https://www.gravatar.com/avatar/c160f8cc69a4f0bf2b0362752353d060?s=80&d=identicon",
	}
	const fields = `id username name state webUrl webPath publicEmail bio location avatarUrl`
	for _, tc := range []struct {
		desc, token, query string
		vars               map[string]any
		field              string
		want               any
	}{
		{"user by username, anonymous", "", `query($u: String) { user(username: $u) { ` + fields + ` } }`, map[string]any{"u": "alice"}, "user", want},
		{"user by id", servertest.RootToken, `query($id: UserID) { user(id: $id) { ` + fields + ` } }`, map[string]any{"id": gid}, "user", want},
		{"unknown user is null", "", `{ user(username: "nobody") { id } }`, nil, "user", nil},
		{"users by username", "", `{ users(usernames: ["alice"]) { count nodes { username } } }`, nil, "users",
			map[string]any{"count": float64(1), "nodes": []any{map[string]any{"username": "alice"}}}},
		{"users searched", servertest.RootToken, `{ users(search: "alic") { nodes { username } } }`, nil, "users",
			map[string]any{"nodes": []any{map[string]any{"username": "alice"}}}},
		{"users by usernames and ids", servertest.RootToken, `query($ids: [ID!]) { users(usernames: ["ALICE", "root", "nobody"], ids: $ids) { nodes { username } } }`,
			map[string]any{"ids": []string{gid}}, "users", map[string]any{"nodes": []any{map[string]any{"username": "alice"}}}},
		{"administrators", servertest.RootToken, `{ users(admins: true) { nodes { username } } }`, nil, "users",
			map[string]any{"nodes": []any{map[string]any{"username": "root"}}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, data(t, in, tc.token, tc.query, tc.vars)[tc.field])
		})
	}
	t.Run("anonymous callers must name one user", func(t *testing.T) {
		r := gql(t, in, "", `{ users(usernames: ["alice", "root"]) { count } }`, nil)
		assertJSON(t, r, http.StatusOK, `{"errors":[{"message":"Not authorized to access /api/v4/users","path":["users"],"locations":[{"line":1,"column":3}],"extensions":{"code":"FORBIDDEN"}}],"data":{"users":null}}`)
	})
	t.Run("client-go GraphQL.Do", func(t *testing.T) {
		var resp struct {
			Data struct {
				CurrentUser struct {
					ID       string `json:"id"`
					Username string `json:"username"`
					WebURL   string `json:"webUrl"`
				} `json:"currentUser"`
			} `json:"data"`
		}
		_, err := in.Client(t, servertest.RootToken).GraphQL.Do(gitlab.GraphQLQuery{Query: `{ currentUser { id username webUrl } }`}, &resp)
		require.NoError(t, err)
		assert.Equal(t, "gid://gitlab/User/1", resp.Data.CurrentUser.ID)
		assert.Equal(t, "root", resp.Data.CurrentUser.Username)
		assert.Equal(t, in.URL+"/root", resp.Data.CurrentUser.WebURL)

		_, err = in.Client(t, "glpat-wrong").GraphQL.Do(gitlab.GraphQLQuery{Query: `{ currentUser { id } }`}, &resp)
		var gqlErr *gitlab.GraphQLResponseError
		require.ErrorAs(t, err, &gqlErr)
		require.Len(t, gqlErr.Errors.Errors, 1)
		assert.Equal(t, "Invalid token", gqlErr.Errors.Errors[0].Message)
	})
}

func testFields(t *testing.T, w *world) {
	sub := w.in.NewGroup(t, "sub", "private", mustGroup(t, w, "secret"))
	w.in.NewProject(t, sub, "deep", "private")
	d := data(t, w.in, w.alice, `{
		group(fullPath: "secret/sub") {
			name fullPath fullName webUrl visibility description
			parent { fullPath parent { id } }
			projects { count nodes { name } }
		}
		secret: group(fullPath: "secret") { projects(includeSubgroups: true) { nodes { fullPath } } }
		project(fullPath: "secret/sub/deep") {
			name path fullPath nameWithNamespace webUrl visibility archived description
			namespace { fullPath } group { fullPath }
		}
	}`, nil)
	assert.Equal(t, map[string]any{
		"name": "sub", "fullPath": "secret/sub", "fullName": "secret / sub", "webUrl": w.in.URL + "/groups/secret/sub",
		"visibility": "private", "description": "",
		"parent":   map[string]any{"fullPath": "secret", "parent": nil},
		"projects": map[string]any{"count": float64(1), "nodes": []any{map[string]any{"name": "deep"}}},
	}, d["group"])
	assert.ElementsMatch(t, []any{map[string]any{"fullPath": "secret/proj"}, map[string]any{"fullPath": "secret/sub/deep"}},
		path(d, "secret", "projects", "nodes"))
	assert.Equal(t, map[string]any{
		"name": "deep", "path": "deep", "fullPath": "secret/sub/deep", "nameWithNamespace": "secret / sub / deep",
		"webUrl": w.in.URL + "/secret/sub/deep", "visibility": "private", "archived": false, "description": "",
		"namespace": map[string]any{"fullPath": "secret/sub"}, "group": map[string]any{"fullPath": "secret/sub"},
	}, d["project"])

	t.Run("members", func(t *testing.T) {
		d := data(t, w.in, w.alice, `{ group(fullPath: "secret") { groupMembers(search: "ali") {
			count nodes { accessLevel { integerValue stringValue humanAccess } user { username } group { fullPath } project { id } }
		} } }`, nil)
		assert.Equal(t, map[string]any{"count": float64(1), "nodes": []any{map[string]any{
			"accessLevel": map[string]any{"integerValue": float64(30), "stringValue": "DEVELOPER", "humanAccess": "Developer"},
			"user":        map[string]any{"username": "alice"}, "group": map[string]any{"fullPath": "secret"}, "project": nil,
		}}}, path(d, "group", "groupMembers"))
		// A top-level group inherits nobody.
		d = data(t, w.in, w.alice, `{ group(fullPath: "secret") { groupMembers(relations: [INHERITED]) { count } } }`, nil)
		assert.Equal(t, float64(0), path(d, "group", "groupMembers", "count"))
	})
}

func mustGroup(t *testing.T, w *world, fullPath string) *ent.Namespace {
	t.Helper()
	ns, err := w.in.Services.Groups.Lookup(t.Context(), fullPath)
	require.NoError(t, err)
	return ns
}
