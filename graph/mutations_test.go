package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
)

// resourceError is GitLab's answer to a mutation on something missing, invisible or forbidden.
func resourceError(field, code string) string {
	return `{"errors":[{"message":"The resource that you are attempting to access does not exist or you don't have permission to perform this action","path":["` +
		field + `"],"locations":[{"line":1,"column":12}],"extensions":{"code":"` + code + `"}}],"data":{"` + field + `":null}}`
}

// TestMutations runs every mutation on one server; each part uses its own users and groups.
func TestMutations(t *testing.T) {
	in := servertest.Start(t)
	t.Run("groups and projects", func(t *testing.T) { testGroupAndProjectMutations(t, in) })
	t.Run("members", func(t *testing.T) { testMemberMutations(t, in) })
	t.Run("users and scopes", func(t *testing.T) { testUserMutations(t, in) })
}

func testGroupAndProjectMutations(t *testing.T, in *servertest.Instance) {
	_, alice := in.NewUser(t, "alice")
	_, bob := in.NewUser(t, "bob")

	d := data(t, in, alice, `mutation { groupCreate(input: {name: "Team", path: "team", description: "d", visibility: private, clientMutationId: "m1"}) {
		clientMutationId errors group { id fullPath name description visibility groupMembers { nodes { user { username } accessLevel { stringValue } } } } } }`, nil)
	group := path(d, "groupCreate", "group").(map[string]any)
	assert.Equal(t, "m1", path(d, "groupCreate", "clientMutationId"))
	assert.Equal(t, []any{}, path(d, "groupCreate", "errors"))
	assert.Regexp(t, `^gid://gitlab/Group/\d+$`, group["id"])
	assert.Equal(t, "team", group["fullPath"])
	assert.Equal(t, "private", group["visibility"])
	assert.Equal(t, []any{map[string]any{"user": map[string]any{"username": "alice"}, "accessLevel": map[string]any{"stringValue": "OWNER"}}},
		path(group, "groupMembers", "nodes"))

	t.Run("subgroup by parent id", func(t *testing.T) {
		d := data(t, in, alice, `mutation($p: GroupID) { groupCreate(input: {name: "Sub", path: "sub", parentId: $p}) { errors group { fullPath parent { fullPath } } } }`,
			map[string]any{"p": group["id"]})
		assert.Equal(t, map[string]any{"errors": []any{}, "group": map[string]any{"fullPath": "team/sub", "parent": map[string]any{"fullPath": "team"}}}, d["groupCreate"])
	})
	t.Run("taken path is a payload error", func(t *testing.T) {
		d := data(t, in, alice, `mutation { groupCreate(input: {name: "Team2", path: "team"}) { errors group { id } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{"Path has already been taken"}, "group": nil}, d["groupCreate"])
	})
	t.Run("groupUpdate", func(t *testing.T) {
		d := data(t, in, alice, `mutation { groupUpdate(input: {fullPath: "team", description: "new"}) { errors group { description } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{}, "group": map[string]any{"description": "new"}}, d["groupUpdate"])
	})
	t.Run("groupUpdate of an invisible group", func(t *testing.T) {
		r := gql(t, in, bob, `mutation { groupUpdate(input: {fullPath: "team", description: "x"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("groupUpdate", "NOT_FOUND"))
	})

	var projectID string
	t.Run("projectCreate in the group", func(t *testing.T) {
		d := data(t, in, alice, `mutation($ns: NamespaceID) { projectCreate(input: {name: "App", path: "app", namespaceId: $ns, visibility: internal}) {
			errors project { id fullPath visibility group { fullPath } } } }`, map[string]any{"ns": group["id"]})
		assert.Equal(t, []any{}, path(d, "projectCreate", "errors"))
		assert.Equal(t, "team/app", path(d, "projectCreate", "project", "fullPath"))
		assert.Equal(t, "private", path(d, "projectCreate", "project", "visibility"), "capped at the group's visibility")
		assert.Equal(t, "team", path(d, "projectCreate", "project", "group", "fullPath"))
		projectID = path(d, "projectCreate", "project", "id").(string)
	})
	t.Run("projectCreate with a taken path", func(t *testing.T) {
		d := data(t, in, alice, `mutation($ns: NamespaceID) { projectCreate(input: {name: "App2", path: "app", namespaceId: $ns}) { errors project { id } } }`,
			map[string]any{"ns": group["id"]})
		assert.Nil(t, path(d, "projectCreate", "project"))
		assert.NotEmpty(t, path(d, "projectCreate", "errors"))
	})
	t.Run("projectUpdate", func(t *testing.T) {
		d := data(t, in, alice, `mutation { projectUpdate(input: {fullPath: "team/app", description: "hello", name: "Application"}) {
			errors project { id name description } } }`, nil)
		assert.Equal(t, map[string]any{"errors": []any{}, "project": map[string]any{"id": projectID, "name": "Application", "description": "hello"}}, d["projectUpdate"])
	})
	t.Run("projectUpdate by a non-member", func(t *testing.T) {
		r := gql(t, in, bob, `mutation { projectUpdate(input: {fullPath: "team/app", description: "x"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("projectUpdate", "NOT_FOUND"))
	})
}

func testMemberMutations(t *testing.T, in *servertest.Instance) {
	owner, ownerToken := in.NewUser(t, "owner")
	dave, _ := in.NewUser(t, "dave")
	g := in.NewGroup(t, "crew", "private", nil)
	in.NewProject(t, g, "app", "private")
	in.AddGroupMember(t, g, owner, 50)
	daveID := fmt.Sprintf("gid://gitlab/User/%d", dave.ID)

	for _, tc := range []struct {
		desc, query, field string
		want               any
	}{
		{"groupMemberCreate", `mutation($u: UserID!) { groupMemberCreate(input: {groupPath: "crew", userId: $u, accessLevel: DEVELOPER}) {
			errors groupMember { accessLevel { integerValue stringValue } user { username } group { fullPath } expiresAt } } }`, "groupMemberCreate",
			map[string]any{"errors": []any{}, "groupMember": map[string]any{
				"accessLevel": map[string]any{"integerValue": float64(30), "stringValue": "DEVELOPER"},
				"user":        map[string]any{"username": "dave"}, "group": map[string]any{"fullPath": "crew"}, "expiresAt": nil}}},
		{"groupMemberCreate twice", `mutation($u: UserID!) { groupMemberCreate(input: {groupPath: "crew", userId: $u, accessLevel: DEVELOPER}) {
			errors groupMember { id } } }`, "groupMemberCreate",
			map[string]any{"errors": []any{"Member already exists"}, "groupMember": nil}},
		{"groupMemberUpdate with an expiry", `mutation($u: UserID!) { groupMemberUpdate(input: {groupPath: "crew", userId: $u, accessLevel: MAINTAINER, expiresAt: "2099-12-31T00:00:00Z"}) {
			errors groupMember { accessLevel { stringValue } expiresAt } } }`, "groupMemberUpdate",
			map[string]any{"errors": []any{}, "groupMember": map[string]any{"accessLevel": map[string]any{"stringValue": "MAINTAINER"}, "expiresAt": "2099-12-31T00:00:00Z"}}},
		{"groupMemberUpdate without expiresAt keeps it", `mutation($u: UserID!) { groupMemberUpdate(input: {groupPath: "crew", userId: $u, accessLevel: REPORTER}) {
			errors groupMember { accessLevel { stringValue } expiresAt } } }`, "groupMemberUpdate",
			map[string]any{"errors": []any{}, "groupMember": map[string]any{"accessLevel": map[string]any{"stringValue": "REPORTER"}, "expiresAt": "2099-12-31T00:00:00Z"}}},
		{"groupMemberUpdate with a null expiresAt clears it", `mutation($u: UserID!) { groupMemberUpdate(input: {groupPath: "crew", userId: $u, accessLevel: REPORTER, expiresAt: null}) {
			errors groupMember { expiresAt } } }`, "groupMemberUpdate",
			map[string]any{"errors": []any{}, "groupMember": map[string]any{"expiresAt": nil}}},
		{"projectMemberCreate", `mutation($u: UserID!) { projectMemberCreate(input: {projectPath: "crew/app", userId: $u, accessLevel: MAINTAINER}) {
			errors projectMember { accessLevel { integerValue } project { fullPath } group { id } } } }`, "projectMemberCreate",
			map[string]any{"errors": []any{}, "projectMember": map[string]any{
				"accessLevel": map[string]any{"integerValue": float64(40)}, "project": map[string]any{"fullPath": "crew/app"}, "group": nil}}},
		{"projectMemberUpdate", `mutation($u: UserID!) { projectMemberUpdate(input: {projectPath: "crew/app", userId: $u, accessLevel: DEVELOPER}) {
			errors projectMember { accessLevel { humanAccess } } } }`, "projectMemberUpdate",
			map[string]any{"errors": []any{}, "projectMember": map[string]any{"accessLevel": map[string]any{"humanAccess": "Developer"}}}},
		{"projectMemberUpdate below the inherited level", `mutation($u: UserID!) { projectMemberUpdate(input: {projectPath: "crew/app", userId: $u, accessLevel: GUEST}) {
			errors projectMember { id } } }`, "projectMemberUpdate",
			map[string]any{"errors": []any{"Access level should be greater than or equal to Reporter inherited membership from group crew"}, "projectMember": nil}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, data(t, in, ownerToken, tc.query, map[string]any{"u": daveID})[tc.field])
		})
	}
	t.Run("project members have ProjectMember ids", func(t *testing.T) {
		d := data(t, in, ownerToken, `{ project(fullPath: "crew/app") { projectMembers(relations: [DIRECT]) { nodes { id user { username } } } } }`, nil)
		assert.Regexp(t, `^gid://gitlab/ProjectMember/\d+$`, path(d, "project", "projectMembers", "nodes", 0, "id"))
		assert.Equal(t, "dave", path(d, "project", "projectMembers", "nodes", 0, "user", "username"))
	})
	t.Run("members of a private group are hidden from others", func(t *testing.T) {
		_, eve := in.NewUser(t, "eve")
		d := data(t, in, eve, `{ group(fullPath: "crew") { groupMembers { count } } }`, nil)
		assert.Nil(t, d["group"])
	})
}

func testUserMutations(t *testing.T, in *servertest.Instance) {
	frank, frankToken := in.NewUser(t, "frank")
	readAPI := in.NewToken(t, frank.ID, "read_api")
	const create = `mutation { userCreate(input: {username: "carol", name: "Carol", email: "carol@example.com", password: "a-long-password-1"}) { errors user { id username name } } }`

	t.Run("administrator creates a user", func(t *testing.T) {
		d := data(t, in, servertest.RootToken, create, nil)
		assert.Equal(t, []any{}, path(d, "userCreate", "errors"))
		assert.Equal(t, "carol", path(d, "userCreate", "user", "username"))
		id := path(d, "userCreate", "user", "id").(string)
		d = data(t, in, servertest.RootToken, `mutation($id: UserID!) { userUpdate(input: {id: $id, name: "Carol C", bio: "hi"}) { errors user { name bio } } }`,
			map[string]any{"id": id})
		assert.Equal(t, map[string]any{"errors": []any{}, "user": map[string]any{"name": "Carol C", "bio": "hi"}}, d["userUpdate"])
	})
	t.Run("taken username is a payload error", func(t *testing.T) {
		d := data(t, in, servertest.RootToken, create, nil)
		assert.Nil(t, path(d, "userCreate", "user"))
		assert.NotEmpty(t, path(d, "userCreate", "errors"))
	})
	t.Run("non-administrator", func(t *testing.T) {
		assertJSON(t, gql(t, in, frankToken, create, nil), http.StatusOK, resourceError("userCreate", "FORBIDDEN"))
	})
	t.Run("anonymous", func(t *testing.T) {
		assertJSON(t, gql(t, in, "", create, nil), http.StatusOK, resourceError("userCreate", "UNAUTHENTICATED"))
	})
	t.Run("read_api token cannot mutate", func(t *testing.T) {
		r := gql(t, in, readAPI, `mutation { groupCreate(input: {name: "x", path: "x"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("groupCreate", "INSUFFICIENT_SCOPE"))
		assert.Nil(t, data(t, in, servertest.RootToken, `{ group(fullPath: "x") { id } }`, nil)["group"], "nothing was created")
	})
	t.Run("read_api token can query", func(t *testing.T) {
		assert.Equal(t, "frank", path(data(t, in, readAPI, `{ currentUser { username } }`, nil), "currentUser", "username"))
	})
}
