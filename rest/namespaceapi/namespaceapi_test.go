package namespaceapi_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// world is a top-level group acme (alice Owner, bob Developer, carol Minimal Access) with a
// subgroup acme/sub (dave Guest) holding a project, and a public group open nobody belongs to.
type world struct {
	in                       *servertest.Instance
	acme, sub, open          *ent.Namespace
	alice, bob, carol, dave  *ent.User
	aliceT, bobT, carolT, dT string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	in := servertest.Start(t)
	w := &world{in: in}
	w.alice, w.aliceT = in.NewUser(t, "alice")
	w.bob, w.bobT = in.NewUser(t, "bob")
	w.carol, w.carolT = in.NewUser(t, "carol")
	w.dave, w.dT = in.NewUser(t, "dave")
	w.acme = in.NewGroup(t, "acme", "private", nil)
	w.sub = in.NewGroup(t, "sub", "private", w.acme)
	w.open = in.NewGroup(t, "open", "public", nil)
	in.AddGroupMember(t, w.acme, w.alice, 50)
	in.AddGroupMember(t, w.acme, w.bob, 30)
	in.AddGroupMember(t, w.acme, w.carol, 5)
	in.AddGroupMember(t, w.sub, w.dave, 10)
	in.NewProject(t, w.sub, "app", "private")
	in.NewProject(t, w.acme, "lib", "private")
	return w
}

func fullPaths(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	var out []string
	for _, n := range servertest.List(t, r) {
		out = append(out, n["full_path"].(string))
	}
	return out
}

func TestNamespaces_list(t *testing.T) {
	w := newWorld(t)
	in := w.in
	// Personal namespace first (created with the user, lower id), then direct memberships.
	assert.Equal(t, []string{"alice", "acme"}, fullPaths(t, in.Do(t, "GET", "/namespaces", w.aliceT, nil)))
	assert.Equal(t, []string{"bob", "acme"}, fullPaths(t, in.Do(t, "GET", "/namespaces", w.bobT, nil)))
	// Minimal Access is no membership here; inherited access (dave in acme through sub) neither.
	assert.Equal(t, []string{"carol"}, fullPaths(t, in.Do(t, "GET", "/namespaces", w.carolT, nil)))
	assert.Equal(t, []string{"dave", "acme/sub"}, fullPaths(t, in.Do(t, "GET", "/namespaces", w.dT, nil)))

	t.Run("filters", func(t *testing.T) {
		assert.Equal(t, []string{"bob"}, fullPaths(t, in.Do(t, "GET", "/namespaces?owned_only=true", w.bobT, nil)))
		assert.Equal(t, []string{"alice", "acme"}, fullPaths(t, in.Do(t, "GET", "/namespaces?owned_only=true", w.aliceT, nil)))
		assert.Equal(t, []string{"dave"}, fullPaths(t, in.Do(t, "GET", "/namespaces?top_level_only=true", w.dT, nil)))
		assert.Equal(t, []string{"acme"}, fullPaths(t, in.Do(t, "GET", "/namespaces?search=acm", w.aliceT, nil)))
		// A short search must match a path or name whole.
		assert.Empty(t, fullPaths(t, in.Do(t, "GET", "/namespaces?search=ac", w.aliceT, nil)))
		// full_path_search matches the parent's path too.
		assert.Empty(t, fullPaths(t, in.Do(t, "GET", "/namespaces?search=acme&top_level_only=false", w.dT, nil)))
		assert.Equal(t, []string{"acme/sub"}, fullPaths(t, in.Do(t, "GET", "/namespaces?search=acme&full_path_search=true", w.dT, nil)))
	})

	t.Run("administrators see every namespace by id", func(t *testing.T) {
		got := fullPaths(t, in.Do(t, "GET", "/namespaces?per_page=100", servertest.RootToken, nil))
		assert.Equal(t, []string{"root", "alice", "bob", "carol", "dave", "acme", "acme/sub", "open"}, got)
		r := in.Do(t, "GET", "/namespaces?per_page=3&page=2", servertest.RootToken, nil)
		assert.Equal(t, []string{"carol", "dave", "acme"}, fullPaths(t, r))
		assert.Equal(t, "8", r.Header.Get("X-Total"))
		assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "3", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
	})

	t.Run("refusals", func(t *testing.T) {
		servertest.RequireError(t, in.Do(t, "GET", "/namespaces", "", nil), 401, "message", "401 Unauthorized")
		servertest.RequireError(t, in.Do(t, "GET", "/namespaces?owned_only=maybe", w.aliceT, nil), 400, "error", "owned_only is invalid")
		servertest.RequireError(t, in.Do(t, "GET", "/namespaces?per_page=x", w.aliceT, nil), 400, "error", "per_page is invalid")
	})
}

func TestNamespaces_shape(t *testing.T) {
	w := newWorld(t)
	in := w.in
	base := in.URL
	group := func(extra map[string]any) map[string]any {
		m := map[string]any{
			"id": float64(w.acme.ID), "name": "acme", "path": "acme", "kind": "group", "full_path": "acme",
			"parent_id": nil, "avatar_url": nil, "web_url": base + "/groups/acme",
			"billable_members_count": nil,
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	// The owner sees the counts (members of the group and its subgroups, Minimal Access
	// included), the plan and the billable members (alice and bob: carol has Minimal Access,
	// dave is a Guest, and Ultimate bills neither).
	owner := map[string]any{
		"members_count_with_descendants": float64(4), "projects_count": float64(2), "root_repository_size": float64(0),
		"billable_members_count": float64(2), "plan": "default", "trial_ends_on": nil, "trial": false,
	}
	r := in.Do(t, "GET", fmt.Sprintf("/namespaces/%d", w.acme.ID), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, group(owner), servertest.Object(t, r))

	// A developer sees the basic fields and a null billable count.
	r = in.Do(t, "GET", "/namespaces/acme", w.bobT, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, group(nil), servertest.Object(t, r))

	// Administrators also see the subscription limits.
	admin := map[string]any{
		"shared_runners_minutes_limit": nil, "extra_shared_runners_minutes_limit": nil,
		"additional_purchased_storage_size": float64(0), "additional_purchased_storage_ends_on": nil,
	}
	for k, v := range owner {
		admin[k] = v
	}
	r = in.Do(t, "GET", "/namespaces/ACME", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, group(admin), servertest.Object(t, r))

	// A subgroup has no root repository size.
	r = in.Do(t, "GET", "/namespaces/"+url.PathEscape("acme/sub"), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())
	sub := servertest.Object(t, r)
	assert.Nil(t, sub["root_repository_size"])
	assert.Contains(t, sub, "root_repository_size")
	assert.Equal(t, float64(w.acme.ID), sub["parent_id"])
	assert.Equal(t, base+"/groups/acme/sub", sub["web_url"])
	assert.Equal(t, float64(1), sub["members_count_with_descendants"])

	// A personal namespace: its owner sees the plan and itself as the billable member.
	ns := in.PersonalNamespace(t, w.bob)
	r = in.Do(t, "GET", fmt.Sprintf("/namespaces/%d", ns.ID), w.bobT, nil)
	require.Equal(t, 200, r.Status, r.String())
	personal := servertest.Object(t, r)
	assert.Equal(t, "user", personal["kind"])
	assert.Equal(t, base+"/bob", personal["web_url"])
	assert.Equal(t, float64(1), personal["billable_members_count"])
	assert.Equal(t, "default", personal["plan"])
	assert.NotContains(t, personal, "members_count_with_descendants")
	assert.Regexp(t, `^https://www\.gravatar\.com/avatar/`, personal["avatar_url"])
}

func TestNamespaces_getRefusals(t *testing.T) {
	w := newWorld(t)
	in := w.in
	notFound := func(path, token string) {
		t.Helper()
		servertest.RequireError(t, in.Do(t, "GET", path, token, nil), 404, "message", "404 Namespace Not Found")
	}
	// Readable only through a membership: a public group is no exception.
	notFound(fmt.Sprintf("/namespaces/%d", w.open.ID), w.aliceT)
	notFound("/namespaces/open", w.aliceT)
	// Minimal Access is below Guest; another user's personal namespace is private to them.
	notFound("/namespaces/acme", w.carolT)
	notFound(fmt.Sprintf("/namespaces/%d", in.PersonalNamespace(t, w.alice).ID), w.bobT)
	notFound("/namespaces/nope", w.aliceT)
	notFound("/namespaces/999999", w.aliceT)
	// Inherited access counts: dave is a Guest of acme/sub only, yet reads it; not acme.
	r := in.Do(t, "GET", "/namespaces/"+url.PathEscape("acme/sub"), w.dT, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.NotContains(t, servertest.Object(t, r), "members_count_with_descendants")
	notFound("/namespaces/acme", w.dT)
	servertest.RequireError(t, in.Do(t, "GET", "/namespaces/acme", "", nil), 401, "message", "401 Unauthorized")
}

func TestNamespaces_exists(t *testing.T) {
	w := newWorld(t)
	in := w.in
	exists := func(path string, want string) {
		t.Helper()
		r := in.Do(t, "GET", path, w.bobT, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.JSONEq(t, want, string(r.Body))
	}
	exists("/namespaces/acme/exists", `{"exists":true,"suggests":["acme1"]}`)
	r := in.Do(t, "GET", "/namespaces/ACME/exists", w.bobT, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["exists"], "paths match regardless of case")
	exists("/namespaces/alice/exists", `{"exists":true,"suggests":["alice1"]}`)
	exists("/namespaces/nothing/exists", `{"exists":false,"suggests":[]}`)
	// sub exists under acme only.
	exists("/namespaces/sub/exists", `{"exists":false,"suggests":[]}`)
	exists(fmt.Sprintf("/namespaces/sub/exists?parent_id=%d", w.acme.ID), `{"exists":true,"suggests":["sub1"]}`)
	in.NewGroup(t, "acme1", "private", nil)
	exists("/namespaces/acme/exists", `{"exists":true,"suggests":["acme2"]}`)
	servertest.RequireError(t, in.Do(t, "GET", "/namespaces/acme/exists", "", nil), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, in.Do(t, "GET", "/namespaces/acme/exists?parent_id=x", w.bobT, nil), 400, "error", "parent_id is invalid")
}

func TestNamespaces_clientGo(t *testing.T) {
	w := newWorld(t)
	gl := w.in.Client(t, w.aliceT)
	list, _, err := gl.Namespaces.ListNamespaces(&gitlab.ListNamespacesOptions{OwnedOnly: gitlab.Ptr(true)})
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, "group", list[1].Kind)
	assert.Equal(t, int64(4), list[1].MembersCountWithDescendants)
	assert.Equal(t, "default", list[1].Plan)

	ns, _, err := gl.Namespaces.GetNamespace("acme/sub")
	require.NoError(t, err)
	assert.Equal(t, int64(w.acme.ID), ns.ParentID)

	ex, _, err := gl.Namespaces.NamespaceExists("acme", nil)
	require.NoError(t, err)
	assert.True(t, ex.Exists)
	assert.Equal(t, []string{"acme1"}, ex.Suggests)

	_, resp, err := gl.Namespaces.GetNamespace("open")
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
	_ = context.Background()
}
