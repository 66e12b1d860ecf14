package graph_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/nullable"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeValues lists one field of a connection's nodes, in order.
func nodeValues(conn any, field string) []string {
	out := []string{}
	for _, n := range path(conn, "nodes").([]any) {
		out = append(out, fmt.Sprint(path(n, field)))
	}
	return out
}

func TestSort(t *testing.T) {
	in := servertest.Start(t)
	// Created in this order: ids grow b, c, a; names sort a, b, c; paths sort x, y, z.
	g := in.NewGroup(t, "sorted", "public", nil)
	for _, p := range []struct{ name, path string }{{"b", "y"}, {"c", "x"}, {"a", "z"}} {
		proj := in.NewProject(t, g, p.path, "public")
		require.NoError(t, in.DB.Client.Project.UpdateOne(proj).SetName(p.name).Exec(context.Background()))
	}
	for _, path := range []string{"gb", "gc", "ga"} {
		in.NewGroup(t, path, "public", nil)
	}
	for _, tc := range []struct {
		sort string
		want []string
	}{
		{"", []string{"a", "c", "b"}}, // GitLab's default: id_desc
		{"id_desc", []string{"a", "c", "b"}},
		{"id_asc", []string{"b", "c", "a"}},
		{"name_asc", []string{"a", "b", "c"}},
		{"name_desc", []string{"c", "b", "a"}},
		{"path_asc", []string{"c", "b", "a"}},
		{"created_asc", []string{"b", "c", "a"}},
		{"latest_activity_desc", []string{"a", "c", "b"}},
		{"no_such_sort", []string{"a", "c", "b"}},
	} {
		t.Run("projects "+tc.sort, func(t *testing.T) {
			vars := map[string]any{}
			if tc.sort != "" {
				vars["sort"] = tc.sort
			}
			d := data(t, in, "", `query($sort: String) { projects(sort: $sort) { nodes { name } } }`, vars)
			assert.Equal(t, tc.want, nodeValues(path(d, "projects"), "name"))
		})
	}
	t.Run("projects page in the sort order", func(t *testing.T) {
		q := `query($after: Cursor) { projects(sort: "name_desc", first: 2, after: $after) { pageInfo { endCursor } nodes { name } } }`
		d := data(t, in, "", q, nil)
		assert.Equal(t, []string{"c", "b"}, nodeValues(path(d, "projects"), "name"))
		d = data(t, in, "", q, map[string]any{"after": path(d, "projects", "pageInfo", "endCursor")})
		assert.Equal(t, []string{"a"}, nodeValues(path(d, "projects"), "name"))
	})
	for _, tc := range []struct {
		sort string
		want []string
	}{
		{"", []string{"ga", "gb", "gc", "sorted"}}, // GitLab's default: name_asc
		{"name_desc", []string{"sorted", "gc", "gb", "ga"}},
		{"id_asc", []string{"sorted", "gb", "gc", "ga"}},
		{"id_desc", []string{"ga", "gc", "gb", "sorted"}},
		{"created_desc", []string{"ga", "gc", "gb", "sorted"}},
	} {
		t.Run("groups "+tc.sort, func(t *testing.T) {
			vars := map[string]any{}
			if tc.sort != "" {
				vars["sort"] = tc.sort
			}
			d := data(t, in, "", `query($sort: String) { groups(sort: $sort) { nodes { fullPath } } }`, vars)
			assert.Equal(t, tc.want, nodeValues(path(d, "groups"), "fullPath"))
		})
	}

	// Users: root first, then u1, u2, u3; u1 is updated last.
	var ids []int
	for _, name := range []string{"u1", "u2", "u3"} {
		u, _ := in.NewUser(t, name)
		ids = append(ids, u.ID)
	}
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
	bio := "changed"
	time.Sleep(2 * time.Millisecond) // timestamps keep milliseconds: u1's update must not tie u3's creation
	_, err = in.Services.Users.Update(context.Background(), authz.System(root), ids[0], users.UpdateInput{Profile: users.Profile{Bio: nullable.Of(bio)}})
	require.NoError(t, err)
	for _, tc := range []struct {
		sort string
		want []string
	}{
		{"", []string{"u3", "u2", "u1", "root"}}, // GitLab's default: created_desc
		{"CREATED_ASC", []string{"root", "u1", "u2", "u3"}},
		{"created_asc", []string{"root", "u1", "u2", "u3"}},
		{"UPDATED_DESC", []string{"u1", "u3", "u2", "root"}},
	} {
		t.Run("users "+tc.sort, func(t *testing.T) {
			q := `{ users { nodes { username } } }`
			if tc.sort != "" {
				q = `{ users(sort: ` + tc.sort + `) { nodes { username } } }`
			}
			d := data(t, in, servertest.RootToken, q, nil)
			assert.Equal(t, tc.want, nodeValues(path(d, "users"), "username"))
		})
	}
	t.Run("users with an unknown sort", func(t *testing.T) {
		r := gql(t, in, servertest.RootToken, `{ users(sort: name_asc) { count } }`, nil)
		assert.Equal(t, 200, r.Status)
		assert.Contains(t, r.String(), `Value \"name_asc\" does not exist in \"Sort\" enum.`)
	})
}

func TestUserNamespaceNode(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceToken := in.NewUser(t, "alice")
	_, bobToken := in.NewUser(t, "bob")
	ns := in.PersonalNamespace(t, alice)
	id := fmt.Sprintf("gid://gitlab/Namespaces::UserNamespace/%d", ns.ID)
	query := `query($id: ID!) { node(id: $id) { id ... on Group { fullPath kind } } }`
	visible := map[string]any{"id": id, "fullPath": "alice", "kind": "user"}
	for _, tc := range []struct {
		desc, token string
		want        any
	}{
		{"owner", aliceToken, visible},
		{"administrator", servertest.RootToken, visible},
		{"another user", bobToken, nil},
		{"anonymous", "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, data(t, in, tc.token, query, map[string]any{"id": id})["node"])
		})
	}
	t.Run("not as a group id", func(t *testing.T) {
		d := data(t, in, aliceToken, query, map[string]any{"id": fmt.Sprintf("gid://gitlab/Group/%d", ns.ID)})
		assert.Nil(t, d["node"])
	})
	t.Run("a group id is not a user namespace", func(t *testing.T) {
		g := in.NewGroup(t, "grp", "public", nil)
		d := data(t, in, aliceToken, query, map[string]any{"id": fmt.Sprintf("gid://gitlab/Namespaces::UserNamespace/%d", g.ID)})
		assert.Nil(t, d["node"])
	})
}
