package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withReadme gives p a README on main.
func withReadme(t *testing.T, f *servertest.RepoFixture, p *ent.Project) {
	t.Helper()
	r := f.Repo(t, p)
	servertest.SetBranch(t, r, "main", servertest.Commit(t, r, "", "README.md", 1))
}

// TestFeatureLevels_repository: the repository feature's level, decided by the policy, on the
// routes of a public project. "private" hides the code from non-members (403 on the
// repositories API, whose only check is read_code; 404 Repository Not Found on the branches and
// commits APIs, which ask for the feature first) and shows it to every member, Guests
// included; "disabled" hides it from everyone, administrators included.
func TestFeatureLevels_repository(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "code", "public")
	withReadme(t, f, p)
	base := fmt.Sprintf("/projects/%d", p.ID)
	set := func(level string) {
		t.Helper()
		r := f.Do(t, "PUT", base, "maintainer", fmt.Sprintf(
			`{"repository_access_level":%q,"merge_requests_access_level":%q,"builds_access_level":%q}`, level, level, level))
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, level, servertest.Object(t, r)["repository_access_level"])
	}
	routes := []string{"/repository/tree?ref=main", "/repository/branches", "/repository/commits?ref_name=main"}
	check := func(role string, want ...any) {
		t.Helper()
		for i, route := range routes {
			r := f.Do(t, "GET", base+route, role, nil)
			switch w := want[i].(type) {
			case int:
				assert.Equal(t, w, r.Status, "%s %s: %s", role, route, r.String())
			case string:
				assert.Equal(t, map[string]any{"message": w}, servertest.Object(t, r), "%s %s", role, route)
			}
		}
	}

	set("private")
	check("outsider", "403 Forbidden", "404 Repository Not Found", "404 Repository Not Found")
	check("", "401 Unauthorized", "404 Repository Not Found", "404 Repository Not Found")
	check("guest", 200, 200, 200)
	check("reporter", 200, 200, 200)
	// The project itself stays visible, and says what the caller may not do.
	r := f.Do(t, "GET", base, "outsider", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, false, servertest.Object(t, r)["can_create_merge_request_in"])
	// Private merge requests are for Reporters and above.
	r = f.Do(t, "GET", base, "guest", nil)
	assert.Equal(t, false, servertest.Object(t, r)["can_create_merge_request_in"])
	r = f.Do(t, "GET", base, "reporter", nil)
	assert.Equal(t, true, servertest.Object(t, r)["can_create_merge_request_in"])

	set("disabled")
	check("reporter", "403 Forbidden", "404 Repository Not Found", "404 Repository Not Found")
	check("maintainer", "403 Forbidden", "404 Repository Not Found", "404 Repository Not Found")
	for i, route := range routes {
		r := f.In.Do(t, "GET", base+route, servertest.RootToken, nil)
		assert.Equal(t, []int{403, 404, 404}[i], r.Status, "admin %s: %s", route, r.String())
	}

	set("enabled")
	check("outsider", 200, 200, 200)
	check("", 200, 200, 200)
}

// TestArchived_readOnly: an archived project refuses every change to its repository (files,
// commits, branches, tags), administrators included, with GitLab's answers; it keeps serving
// reads, and its own administration (settings, members, unarchiving, deletion) goes on, as
// GitLab's policy has it.
func TestArchived_readOnly(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "old", "private")
	withReadme(t, f, p)
	base := fmt.Sprintf("/projects/%d", p.ID)
	root := servertest.RootToken
	r := f.In.Do(t, "POST", base+"/archive", root, nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	file := `{"branch":"topic","start_branch":"main","content":"x","commit_message":"add"}`
	commit := `{"branch":"topic","start_branch":"main","commit_message":"add","actions":[{"action":"create","file_path":"a.txt","content":"a"}]}`
	for _, tc := range []struct {
		method, path, body, msg string
	}{
		{"POST", "/repository/files/new.txt", file, "403 Forbidden"},
		{"POST", "/repository/commits", commit, "403 Forbidden - You are not allowed to push into this branch"},
		{"POST", "/repository/branches?branch=topic&ref=main", "", "403 Forbidden"},
		{"POST", "/repository/tags?tag_name=v1&ref=main", "", "403 Forbidden"},
	} {
		for _, token := range []string{f.Tokens["developer"], f.Tokens["maintainer"], root} {
			r := f.In.Do(t, tc.method, base+tc.path, token, tc.body)
			servertest.RequireError(t, r, http.StatusForbidden, "message", tc.msg)
		}
	}
	branches := servertest.List(t, f.Do(t, "GET", base+"/repository/branches", "developer", nil))
	assert.Equal(t, []string{"main"}, servertest.Names(branches), "nothing written")

	// Reads go on.
	for _, route := range []string{"", "/repository/tree?ref=main", "/repository/files/README.md?ref=main",
		"/repository/branches/main", "/repository/commits?ref_name=main"} {
		r := f.Do(t, "GET", base+route, "reporter", nil)
		assert.Equal(t, http.StatusOK, r.Status, "%s: %s", route, r.String())
	}
	// The project's administration goes on: settings and members.
	r = f.Do(t, "PUT", base, "maintainer", `{"description":"kept for the record"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["archived"])
	r = f.Do(t, "POST", base+"/members", "maintainer", fmt.Sprintf(`{"user_id":%d,"access_level":10}`, f.Users["outsider"].ID))
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	// Unarchived, it takes changes again.
	r = f.In.Do(t, "POST", base+"/unarchive", root, nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = f.Do(t, "POST", base+"/repository/files/new.txt", "developer", file)
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	// An archived project may be deleted.
	r = f.In.Do(t, "POST", base+"/archive", root, nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = f.In.Do(t, "DELETE", base, root, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	r = f.In.Do(t, "GET", base, root, nil)
	assert.Equal(t, http.StatusNotFound, r.Status, r.String())
}
