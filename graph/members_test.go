package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memberWorld is a private group parent with a subgroup sub holding the project app; parent is
// shared with the group friends (at Reporter) and app with the group partners (at Developer).
// owner is an Owner of parent, dev a Developer of sub, pdev a Maintainer of parent and a
// Reporter of app itself, friend a Developer of friends, partner a Maintainer of partners.
type memberWorld struct {
	in     *servertest.Instance
	tokens map[string]string
}

func newMemberWorld(t *testing.T) *memberWorld {
	t.Helper()
	in := servertest.Start(t)
	ctx := context.Background()
	root, err := in.Services.Users.FindByRef(ctx, "root")
	require.NoError(t, err)
	w := &memberWorld{in: in, tokens: map[string]string{}}
	parent := in.NewGroup(t, "parent", "private", nil)
	sub := in.NewGroup(t, "sub", "private", parent)
	friends := in.NewGroup(t, "friends", "private", nil)
	partners := in.NewGroup(t, "partners", "private", nil)
	app := in.NewProject(t, sub, "app", "private")
	levels := map[string]func(u *ent.User){
		"owner":   func(u *ent.User) { in.AddGroupMember(t, parent, u, 50) },
		"dev":     func(u *ent.User) { in.AddGroupMember(t, sub, u, 30) },
		"pdev":    func(u *ent.User) { in.AddGroupMember(t, parent, u, 40); in.AddProjectMember(t, app, u, 20) },
		"friend":  func(u *ent.User) { in.AddGroupMember(t, friends, u, 30) },
		"partner": func(u *ent.User) { in.AddGroupMember(t, partners, u, 40) },
	}
	for _, name := range []string{"owner", "dev", "pdev", "friend", "partner", "outsider"} {
		u, tok := in.NewUser(t, name)
		w.tokens[name] = tok
		if add := levels[name]; add != nil {
			add(u)
		}
	}
	_, err = in.Services.Groups.Share(ctx, authz.System(root), "parent", groups.ShareInput{GroupID: friends.ID, GroupAccess: 20})
	require.NoError(t, err)
	_, err = in.Services.Projects.Share(ctx, authz.System(root), "parent/sub/app", projects.ShareInput{GroupID: partners.ID, GroupAccess: 30})
	require.NoError(t, err)
	return w
}

// memberRows renders a member connection's nodes as "user:level:Model", in order.
func memberRows(t *testing.T, conn any) []string {
	t.Helper()
	out := []string{}
	for _, n := range path(conn, "nodes").([]any) {
		id := path(n, "id").(string)
		model := strings.Split(strings.TrimPrefix(id, "gid://gitlab/"), "/")[0]
		out = append(out, fmt.Sprintf("%s:%v:%s", path(n, "user", "username"), path(n, "accessLevel", "integerValue"), model))
	}
	return out
}

// restMemberRows renders a REST member list as "user:level", sorted.
func restMemberRows(t *testing.T, in *servertest.Instance, token, route string) []string {
	t.Helper()
	r := in.Do(t, "GET", route, token, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	out := []string{}
	for _, m := range decodeList(t, r) {
		out = append(out, fmt.Sprintf("%s:%v", m["username"], m["access_level"]))
	}
	sort.Strings(out)
	return out
}

// withoutModel drops the model part of memberRows' rows and sorts them.
func withoutModel(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r[:strings.LastIndexByte(r, ':')]
	}
	sort.Strings(out)
	return out
}

func TestMembers_relations(t *testing.T) {
	w := newMemberWorld(t)
	const fields = `count nodes { id accessLevel { integerValue } user { username } }`
	groupQuery := `query($rel: [GroupMemberRelation!]) { group(fullPath: "parent/sub") { groupMembers(relations: $rel) { ` + fields + ` } } }`
	projectQuery := `query($rel: [ProjectMemberRelation!]) { project(fullPath: "parent/sub/app") { projectMembers(relations: $rel) { ` + fields + ` } } }`
	for _, tc := range []struct {
		desc, query string
		relations   []string
		want        []string // sorted
	}{
		{"group default: direct and inherited", groupQuery, nil,
			[]string{"dev:30:GroupMember", "owner:50:GroupMember", "pdev:40:GroupMember"}},
		{"group direct", groupQuery, []string{"DIRECT"}, []string{"dev:30:GroupMember"}},
		{"group inherited", groupQuery, []string{"INHERITED"}, []string{"owner:50:GroupMember", "pdev:40:GroupMember"}},
		{"group shared from groups, capped by the share", groupQuery, []string{"SHARED_FROM_GROUPS"}, []string{"friend:20:GroupMember"}},
		{"group all", groupQuery, []string{"DIRECT", "INHERITED", "SHARED_FROM_GROUPS"},
			[]string{"dev:30:GroupMember", "friend:20:GroupMember", "owner:50:GroupMember", "pdev:40:GroupMember"}},
		{"project direct", projectQuery, []string{"DIRECT"}, []string{"pdev:20:ProjectMember"}},
		{"project default: its own row first, at the highest level", projectQuery, nil,
			[]string{"dev:30:GroupMember", "owner:50:GroupMember", "pdev:40:ProjectMember"}},
		{"project inherited", projectQuery, []string{"INHERITED"},
			[]string{"dev:30:GroupMember", "owner:50:GroupMember", "pdev:40:GroupMember"}},
		{"project invited groups, capped by the share", projectQuery, []string{"INVITED_GROUPS"}, []string{"partner:30:GroupMember"}},
		{"project groups shared into its ancestors", projectQuery, []string{"SHARED_INTO_ANCESTORS"}, []string{"friend:20:GroupMember"}},
		{"project all", projectQuery, []string{"DIRECT", "INHERITED", "INVITED_GROUPS", "SHARED_INTO_ANCESTORS"},
			[]string{"dev:30:GroupMember", "friend:20:GroupMember", "owner:50:GroupMember", "partner:30:GroupMember", "pdev:40:ProjectMember"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			vars := map[string]any{}
			if tc.relations != nil {
				vars["rel"] = tc.relations
			}
			d := data(t, w.in, w.tokens["dev"], tc.query, vars)
			var conn any = path(d, "group", "groupMembers")
			if d["group"] == nil {
				conn = path(d, "project", "projectMembers")
			}
			rows := memberRows(t, conn)
			sort.Strings(rows)
			assert.Equal(t, tc.want, rows)
			assert.Equal(t, float64(len(tc.want)), path(conn, "count"))
		})
	}
	t.Run("every relation lists what REST members/all lists", func(t *testing.T) {
		d := data(t, w.in, w.tokens["dev"], groupQuery, map[string]any{"rel": []string{"DIRECT", "INHERITED", "SHARED_FROM_GROUPS"}})
		assert.Equal(t, restMemberRows(t, w.in, w.tokens["dev"], "/groups/parent%2Fsub/members/all?per_page=100"),
			withoutModel(memberRows(t, path(d, "group", "groupMembers"))))
		d = data(t, w.in, w.tokens["dev"], projectQuery, map[string]any{"rel": []string{"DIRECT", "INHERITED", "INVITED_GROUPS", "SHARED_INTO_ANCESTORS"}})
		assert.Equal(t, restMemberRows(t, w.in, w.tokens["dev"], "/projects/parent%2Fsub%2Fapp/members/all?per_page=100"),
			withoutModel(memberRows(t, path(d, "project", "projectMembers"))))
	})
	t.Run("pages by cursor", func(t *testing.T) {
		all := data(t, w.in, w.tokens["dev"], projectQuery, map[string]any{"rel": []string{"DIRECT", "INHERITED", "INVITED_GROUPS", "SHARED_INTO_ANCESTORS"}})
		want := memberRows(t, path(all, "project", "projectMembers"))
		require.Len(t, want, 5)
		q := `query($after: Cursor) { project(fullPath: "parent/sub/app") {
			projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS, SHARED_INTO_ANCESTORS], first: 2, after: $after) {
				count pageInfo { hasNextPage endCursor } nodes { id accessLevel { integerValue } user { username } } } } }`
		var got []string
		var after any
		for range 5 {
			d := data(t, w.in, w.tokens["dev"], q, map[string]any{"after": after})
			conn := path(d, "project", "projectMembers")
			assert.Equal(t, float64(5), path(conn, "count"))
			got = append(got, memberRows(t, conn)...)
			if path(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			after = path(conn, "pageInfo", "endCursor")
		}
		assert.Equal(t, want, got)
	})
	t.Run("search applies to every relation", func(t *testing.T) {
		d := data(t, w.in, w.tokens["dev"], `{ project(fullPath: "parent/sub/app") {
			projectMembers(search: "part", relations: [DIRECT, INHERITED, INVITED_GROUPS]) { nodes { user { username } } } } }`, nil)
		assert.Equal(t, []any{map[string]any{"user": map[string]any{"username": "partner"}}}, path(d, "project", "projectMembers", "nodes"))
	})
	t.Run("hidden from those who cannot see the source", func(t *testing.T) {
		for _, token := range []string{"", w.tokens["outsider"]} {
			d := data(t, w.in, token, `{ group(fullPath: "parent/sub") { groupMembers(relations: [DIRECT, INHERITED, SHARED_FROM_GROUPS]) { count } }
				project(fullPath: "parent/sub/app") { projectMembers { count } } }`, nil)
			assert.Equal(t, map[string]any{"group": nil, "project": nil}, d)
		}
	})
}
