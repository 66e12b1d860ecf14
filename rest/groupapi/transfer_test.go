package groupapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// groupTransferWorld: alice owns the public group src (with src/sub and the public project
// src/sub/p) and the private group dest; she is a Developer of devs; bob is a Developer of src.
type groupTransferWorld struct {
	in                   *servertest.Instance
	src, sub, dest, devs *ent.Namespace
	p                    *ent.Project
	alice, bob           *ent.User
	aliceT, bobT         string
}

func newGroupTransferWorld(t *testing.T) *groupTransferWorld {
	t.Helper()
	in := servertest.Start(t)
	w := &groupTransferWorld{in: in}
	w.alice, w.aliceT = in.NewUser(t, "alice")
	w.bob, w.bobT = in.NewUser(t, "bob")
	w.src = in.NewGroup(t, "src", "public", nil)
	w.sub = in.NewGroup(t, "sub", "public", w.src)
	w.dest = in.NewGroup(t, "dest", "private", nil)
	w.devs = in.NewGroup(t, "devs", "public", nil)
	w.p = in.NewProject(t, w.sub, "p", "public")
	in.AddGroupMember(t, w.src, w.alice, 50)
	in.AddGroupMember(t, w.dest, w.alice, 50)
	in.AddGroupMember(t, w.devs, w.alice, 30)
	in.AddGroupMember(t, w.src, w.bob, 30)
	return w
}

// firstAnswer sends a GET without following redirects.
func firstAnswer(t *testing.T, in *servertest.Instance, path, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", in.URL+"/api/v4"+path, nil)
	require.NoError(t, err)
	req.Header.Set("PRIVATE-TOKEN", token)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}

func TestTransferGroup(t *testing.T) {
	w := newGroupTransferWorld(t)
	in := w.in
	r := in.Do(t, "POST", fmt.Sprintf("/groups/%d/transfer", w.src.ID), w.aliceT, fmt.Sprintf(`{"group_id":%d}`, w.dest.ID))
	require.Equal(t, 201, r.Status, r.String())
	g := servertest.Decode[map[string]any](t, r)
	assert.Equal(t, "dest/src", g["full_path"])
	assert.Equal(t, float64(w.dest.ID), g["parent_id"])
	assert.Equal(t, "dest / src", g["full_name"])
	assert.Equal(t, "private", g["visibility"], "no more visible than its new parent")
	assert.Contains(t, g, "projects")

	// Everything below moved and was made private too.
	assert.Equal(t, []string{"dest/src/sub"}, paths(t, in.Do(t, "GET", "/groups/"+url.PathEscape("dest/src")+"/subgroups", w.aliceT, nil)))
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", w.p.ID), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())
	proj := servertest.Decode[map[string]any](t, r)
	assert.Equal(t, "dest/src/sub/p", proj["path_with_namespace"])
	assert.Equal(t, "private", proj["visibility"])

	// The project's old path redirects; groups, as in GitLab's API, do not follow redirects.
	resp := firstAnswer(t, in, "/projects/"+url.PathEscape("src/sub/p"), w.aliceT)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, w.p.ID), resp.Header.Get("Location"))
	servertest.RequireError(t, in.Do(t, "GET", "/groups/src", w.aliceT, nil), 404, "message", "404 Group Not Found")

	// Back to the top level: group_id left out.
	gl := in.Client(t, w.aliceT)
	moved, _, err := gl.Groups.TransferSubGroup(w.src.ID, &gitlab.TransferSubGroupOptions{})
	require.NoError(t, err)
	assert.Equal(t, "src", moved.FullPath)
	assert.Equal(t, int64(0), moved.ParentID)
	r = in.Do(t, "GET", "/projects/"+url.PathEscape("src/sub/p"), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())
	resp = firstAnswer(t, in, "/projects/"+url.PathEscape("dest/src/sub/p"), w.aliceT)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
}

func TestTransferGroup_refusals(t *testing.T) {
	w := newGroupTransferWorld(t)
	in := w.in
	src := fmt.Sprintf("/groups/%d/transfer", w.src.ID)
	failed := func(path, token, body, reason string) {
		t.Helper()
		servertest.RequireError(t, in.Do(t, "POST", path, token, body), 400, "message", "Transfer failed: "+reason)
	}
	failed(src, w.aliceT, `{}`, "Group is already a root group.")
	failed(fmt.Sprintf("/groups/%d/transfer", w.sub.ID), w.aliceT, fmt.Sprintf(`{"group_id":%d}`, w.src.ID), "Group is already associated to the parent group.")
	failed(src, w.aliceT, fmt.Sprintf(`{"group_id":%d}`, w.devs.ID), "You don't have enough permissions.")
	failed(src, w.aliceT, fmt.Sprintf(`{"group_id":%d}`, w.sub.ID), "Cannot transfer group to one of its subgroup.")
	in.NewGroup(t, "src", "private", w.dest)
	failed(src, w.aliceT, fmt.Sprintf(`{"group_id":%d}`, w.dest.ID), "The parent group already has a subgroup or a project with the same path.")
	other := in.NewGroup(t, "other", "private", nil)
	in.AddGroupMember(t, other, w.alice, 50)
	in.NewProject(t, other, "src", "private")
	failed(src, w.aliceT, fmt.Sprintf(`{"group_id":%d}`, other.ID), "The parent group already has a subgroup or a project with the same path.")

	// A Developer of src may not move it; an invisible parent is 404; anonymous callers 401.
	servertest.RequireError(t, in.Do(t, "POST", src, w.bobT, fmt.Sprintf(`{"group_id":%d}`, w.devs.ID)), 403, "message", "403 Forbidden")
	servertest.RequireError(t, in.Do(t, "POST", src, w.aliceT, `{"group_id":999999}`), 404, "message", "404 Group Not Found")
	hidden := in.NewGroup(t, "hidden", "private", nil)
	servertest.RequireError(t, in.Do(t, "POST", src, w.aliceT, fmt.Sprintf(`{"group_id":%d}`, hidden.ID)), 404, "message", "404 Group Not Found")
	servertest.RequireError(t, in.Do(t, "POST", src, "", `{}`), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, in.Do(t, "POST", src, w.aliceT, `{"group_id":"x"}`), 400, "error", "group_id is invalid")

	// A subgroup made top-level without an Owner of its own gets the actor as Owner.
	r := in.Do(t, "POST", fmt.Sprintf("/groups/%d/transfer", w.sub.ID), w.aliceT, `{}`)
	require.Equal(t, 201, r.Status, r.String())
	m, err := in.DB.Client.Member.Query().All(context.Background())
	require.NoError(t, err)
	owner := false
	for _, row := range m {
		if row.NamespaceID != nil && *row.NamespaceID == w.sub.ID && row.UserID == w.alice.ID && row.AccessLevel == 50 {
			owner = true
		}
	}
	assert.True(t, owner)
}

func TestRenameGroup_redirects(t *testing.T) {
	w := newGroupTransferWorld(t)
	in := w.in
	r := in.Do(t, "PUT", fmt.Sprintf("/groups/%d", w.src.ID), w.aliceT, `{"path":"source"}`)
	require.Equal(t, 200, r.Status, r.String())
	resp := firstAnswer(t, in, "/projects/"+url.PathEscape("src/sub/p")+"/repository/tree", w.aliceT)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, fmt.Sprintf("%s/api/v4/projects/%d/repository/tree", in.URL, w.p.ID), resp.Header.Get("Location"))
	// A group created at the old path takes it and everything below it back.
	in2 := in.Do(t, "POST", "/groups", servertest.RootToken, `{"name":"src","path":"src"}`)
	require.Equal(t, 201, in2.Status, in2.String())
	servertest.RequireError(t, in.Do(t, "GET", "/projects/"+url.PathEscape("src/sub/p"), w.aliceT, nil), 404, "message", "404 Project Not Found")
}
