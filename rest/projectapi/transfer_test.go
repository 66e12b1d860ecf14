package projectapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/projects"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// transferWorld: alice owns alice/app (public, with a repository) and is a Maintainer of the
// private group acme, a Developer of dev, and a Guest of guests; bob is a Developer of the
// project; carol sees nothing.
type transferWorld struct {
	in                   *servertest.Instance
	acme, dev, guests    *ent.Namespace
	app                  *ent.Project
	alice, bob, carol    *ent.User
	aliceT, bobT, carolT string
}

func newTransferWorld(t *testing.T) *transferWorld {
	t.Helper()
	in := servertest.Start(t)
	w := &transferWorld{in: in}
	w.alice, w.aliceT = in.NewUser(t, "alice")
	w.bob, w.bobT = in.NewUser(t, "bob")
	w.carol, w.carolT = in.NewUser(t, "carol")
	w.acme = in.NewGroup(t, "acme", "private", nil)
	w.dev = in.NewGroup(t, "dev", "public", nil)
	w.guests = in.NewGroup(t, "guests", "public", nil)
	in.AddGroupMember(t, w.acme, w.alice, 40)
	in.AddGroupMember(t, w.dev, w.alice, 30)
	in.AddGroupMember(t, w.guests, w.alice, 10)
	path, vis := "app", "public"
	p, _, err := in.Services.Projects.Create(context.Background(), authz.System(w.alice), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path, Visibility: &vis}, InitializeWithReadme: true,
	})
	require.NoError(t, err)
	w.app = p
	in.AddProjectMember(t, p, w.bob, 30)
	return w
}

func TestTransferProject(t *testing.T) {
	w := newTransferWorld(t)
	in := w.in
	id := fmt.Sprintf("/projects/%d", w.app.ID)
	r := in.Do(t, "PUT", id+"/transfer", w.aliceT, `{"namespace":"acme"}`)
	require.Equal(t, 200, r.Status, r.String())
	body := servertest.Decode[map[string]any](t, r)
	assert.Equal(t, "acme/app", body["path_with_namespace"])
	assert.Equal(t, float64(w.acme.ID), body["namespace"].(map[string]any)["id"])
	assert.Equal(t, "private", body["visibility"], "no more visible than its new group")
	assert.Equal(t, false, body["empty_repo"], "the repository moved with the project")
	assert.NotContains(t, body, "permissions", "the Project entity, as GitLab answers a transfer")

	t.Run("the old path redirects reads and refuses writes", func(t *testing.T) {
		old := "/projects/" + url.PathEscape("alice/app")
		r := in.Do(t, "GET", in.URL+"/api/v4"+old+"/repository/branches?per_page=5", w.aliceT, nil)
		// servertest.Do follows the redirect, as Go clients do; look at the first answer.
		assert.Equal(t, 200, r.Status, r.String())
		resp := noRedirect(t, in, "GET", old+"/repository/branches?per_page=5", w.aliceT)
		assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
		want := fmt.Sprintf("%s/api/v4/projects/%d/repository/branches?per_page=5", in.URL, w.app.ID)
		assert.Equal(t, want, resp.Header.Get("Location"))
		assert.Equal(t, "This resource has been moved permanently to "+want, readBody(t, resp))

		servertest.RequireError(t, in.Do(t, "PUT", old, w.aliceT, `{"description":"x"}`), 405,
			"message", "Non GET methods are not allowed for moved projects")
		servertest.RequireError(t, in.Do(t, "POST", old+"/star", w.aliceT, nil), 405,
			"message", "Non GET methods are not allowed for moved projects")
		// Callers who may not read the project get the 404 they would get anyway.
		servertest.RequireError(t, in.Do(t, "GET", old, w.carolT, nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, in.Do(t, "GET", old, "", nil), 404, "message", "404 Project Not Found")

		p, _, err := in.Client(t, w.bobT).Projects.GetProject("alice/app", nil)
		require.NoError(t, err, "client-go follows the redirect")
		assert.Equal(t, int64(w.app.ID), p.ID)
		assert.Equal(t, "acme/app", p.PathWithNamespace)
	})

	t.Run("a new project at the old path takes it back", func(t *testing.T) {
		path := "app"
		p, _, err := in.Services.Projects.Create(context.Background(), authz.System(w.alice), projects.CreateInput{
			Attributes: projects.Attributes{Path: &path},
		})
		require.NoError(t, err)
		r := in.Do(t, "GET", "/projects/"+url.PathEscape("alice/app"), w.aliceT, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, float64(p.ID), servertest.Decode[map[string]any](t, r)["id"])
		require.Equal(t, 202, in.Do(t, "DELETE", fmt.Sprintf("/projects/%d", p.ID), w.aliceT, nil).Status)
		// The old path no longer redirects: the new project claimed it.
		servertest.RequireError(t, in.Do(t, "GET", "/projects/"+url.PathEscape("alice/app"), w.aliceT, nil), 404, "message", "404 Project Not Found")
	})

	t.Run("client-go", func(t *testing.T) {
		moved, _, err := in.Client(t, w.aliceT).Projects.TransferProject(w.app.ID, &gitlab.TransferProjectOptions{Namespace: gitlab.Ptr(w.alice.Username)})
		require.NoError(t, err)
		assert.Equal(t, "alice/app", moved.PathWithNamespace)
		// The personal namespace's owner is the project's Owner member again.
		r := in.Do(t, "GET", id+"/members/"+fmt.Sprint(w.alice.ID), w.aliceT, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, float64(50), servertest.Decode[map[string]any](t, r)["access_level"])
	})
}

func TestTransferProject_refusals(t *testing.T) {
	w := newTransferWorld(t)
	in := w.in
	id := fmt.Sprintf("/projects/%d", w.app.ID)
	failed := func(token, body, msg string) {
		t.Helper()
		servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", token, body), 400, "message",
			`Failed to transfer project {:new_namespace=>["`+msg+`"]}`)
	}
	failed(w.aliceT, `{"namespace":"alice"}`, "Project is already in this namespace.")
	failed(w.aliceT, `{"namespace":"dev"}`, "You don't have permission to transfer projects into that namespace.")
	failed(w.aliceT, fmt.Sprintf(`{"namespace":%d}`, w.guests.ID), "You don't have permission to transfer projects into that namespace.")
	taken := in.NewProject(t, w.acme, "app", "private")
	failed(w.aliceT, `{"namespace":"acme"}`, "Project with same name or path in target namespace already exists")
	require.NoError(t, in.DB.Client.Project.DeleteOne(taken).Exec(context.Background()))

	// Namespaces are found through a membership only: a public group is not enough.
	open := in.NewGroup(t, "open", "public", nil)
	servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", w.aliceT, fmt.Sprintf(`{"namespace":%d}`, open.ID)), 404, "message", "404 Namespace Not Found")
	servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", w.aliceT, `{"namespace":"nowhere"}`), 404, "message", "404 Namespace Not Found")
	servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", w.aliceT, `{}`), 400, "error", "namespace is missing")
	// Only the project's Owner may move it; others who see it get 403, the rest 404 and 401.
	servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", w.bobT, `{"namespace":"acme"}`), 403, "message", "403 Forbidden")
	servertest.RequireError(t, in.Do(t, "PUT", id+"/transfer", "", `{"namespace":"acme"}`), 401, "message", "401 Unauthorized")
	private := in.NewProject(t, w.acme, "secret", "private")
	servertest.RequireError(t, in.Do(t, "PUT", fmt.Sprintf("/projects/%d/transfer", private.ID), w.carolT, `{"namespace":"acme"}`), 404, "message", "404 Project Not Found")

	// Administrators may move any project anywhere.
	r := in.Do(t, "PUT", id+"/transfer", servertest.RootToken, fmt.Sprintf(`{"namespace":%d}`, open.ID))
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "open/app", servertest.Decode[map[string]any](t, r)["path_with_namespace"])
	assert.Equal(t, "public", servertest.Decode[map[string]any](t, r)["visibility"])
}

func TestRenameProject_redirects(t *testing.T) {
	w := newTransferWorld(t)
	in := w.in
	r := in.Do(t, "PUT", fmt.Sprintf("/projects/%d", w.app.ID), w.aliceT, `{"path":"renamed"}`)
	require.Equal(t, 200, r.Status, r.String())
	resp := noRedirect(t, in, "GET", "/projects/"+url.PathEscape("alice/app"), w.aliceT)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, w.app.ID), resp.Header.Get("Location"))
	// A change of case only is no move.
	r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d", w.app.ID), w.aliceT, `{"path":"Renamed"}`)
	require.Equal(t, 200, r.Status, r.String())
	r = in.Do(t, "GET", "/projects/"+url.PathEscape("alice/renamed"), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())
}

func TestRenameUser_redirects(t *testing.T) {
	w := newTransferWorld(t)
	in := w.in
	r := in.Do(t, "PUT", fmt.Sprintf("/users/%d", w.alice.ID), servertest.RootToken, `{"username":"alicia"}`)
	require.Equal(t, 200, r.Status, r.String())
	resp := noRedirect(t, in, "GET", "/projects/"+url.PathEscape("alice/app"), w.aliceT)
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, fmt.Sprintf("%s/api/v4/projects/%d", in.URL, w.app.ID), resp.Header.Get("Location"))
	r = in.Do(t, "GET", "/projects/"+url.PathEscape("alicia/app"), w.aliceT, nil)
	require.Equal(t, 200, r.Status, r.String())

	// A new user taking the old username takes its paths back.
	pw := servertest.UserPassword
	_, err := in.Services.Users.Create(context.Background(), nil, users.CreateInput{
		Username: "alice", Name: "Another Alice", Email: "another@example.com", Password: &pw,
	})
	require.NoError(t, err)
	servertest.RequireError(t, in.Do(t, "GET", "/projects/"+url.PathEscape("alice/app"), w.aliceT, nil), 404, "message", "404 Project Not Found")
}
