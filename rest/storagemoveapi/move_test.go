package storagemoveapi_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStorage_unknownIsRefused: an unknown repository_storage is the Project model's
// validation error on update and on create; the project keeps working where it is.
func TestStorage_unknownIsRefused(t *testing.T) {
	w := newWorld(t)
	id := w.project(t, "alpha")
	p := fmt.Sprintf("/projects/%d", id)
	want := map[string]any{"message": map[string]any{"repository_storage": []any{"is not included in the list"}}}

	r := w.in.Do(t, "PUT", p, root, `{"repository_storage":"nonexistent"}`)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, want, jsonBody(t, r))
	got := servertest.Object(t, w.in.Do(t, "GET", p, root, nil))
	assert.Equal(t, "default", got["repository_storage"])
	r = w.in.Do(t, "GET", p+"/repository/branches/main", root, nil)
	assert.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, w.moves(t, p+"/repository_storage_moves"), "nothing was scheduled")

	r = w.in.Do(t, "POST", "/projects", root, `{"name":"beta","repository_storage":"nonexistent"}`)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, want, jsonBody(t, r))

	t.Run("a known storage on create places the repository there", func(t *testing.T) {
		r := w.in.Do(t, "POST", "/projects", root, `{"name":"gamma","repository_storage":"second","initialize_with_readme":true}`)
		require.Equal(t, 201, r.Status, r.String())
		obj := servertest.Object(t, r)
		assert.Equal(t, "second", obj["repository_storage"])
		gid := int(obj["id"].(float64))
		assert.DirExists(t, w.repoPath("second", gid))
		assert.NoDirExists(t, w.repoPath("default", gid))
		assert.Equal(t, 200, w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/files/README.md/raw?ref=main", gid), root, nil).Status)
	})
	t.Run("non-administrators do not see repository_storage, and their value is ignored", func(t *testing.T) {
		_, tok := w.in.NewUser(t, "dana")
		r := w.in.Do(t, "POST", "/projects", tok, `{"name":"delta","repository_storage":"nonexistent"}`)
		require.Equal(t, 201, r.Status, r.String())
		obj := servertest.Object(t, r)
		assert.NotContains(t, obj, "repository_storage")
		did := int(obj["id"].(float64))
		assert.DirExists(t, w.repoPath("default", did))
	})
}

// TestStorage_moveOnUpdate: PUT repository_storage to another storage moves the repository
// (copied, verified, switched, source removed); clones, reads, API writes and pushes work from
// the new storage.
func TestStorage_moveOnUpdate(t *testing.T) {
	w := newWorld(t)
	id := w.project(t, "alpha")
	p := fmt.Sprintf("/projects/%d", id)
	before := w.clone(t, "root/alpha")
	head, _ := w.git(t, before, false, "rev-parse", "HEAD")

	r := w.in.Do(t, "PUT", p, root, `{"repository_storage":"second"}`)
	require.Equal(t, 200, r.Status, r.String())
	w.in.WaitJobs(t) // the move is a job, as GitLab's is
	r = w.in.Do(t, "GET", p, root, nil)
	assert.Equal(t, "second", servertest.Object(t, r)["repository_storage"])

	moves := w.moves(t, p+"/repository_storage_moves")
	require.Len(t, moves, 1)
	assert.Equal(t, "finished", moves[0]["state"])
	assert.Equal(t, "default", moves[0]["source_storage_name"])
	assert.Equal(t, "second", moves[0]["destination_storage_name"])
	assert.DirExists(t, w.repoPath("second", id))
	assert.NoDirExists(t, w.repoPath("default", id), "the source is removed")
	got, err := w.in.DB.Client.Project.Get(t.Context(), id)
	require.NoError(t, err)
	assert.False(t, got.RepositoryReadOnly, "writable again")

	dir := w.clone(t, "root/alpha")
	after, _ := w.git(t, dir, false, "rev-parse", "HEAD")
	assert.Equal(t, head, after)
	tags, _ := w.git(t, dir, false, "tag", "--list")
	assert.Equal(t, "v1\n", tags)
	assert.FileExists(t, filepath.Join(dir, "src", "main.go"))
	for _, path := range []string{"/repository/branches", "/repository/tags/v1", "/repository/commits",
		"/repository/tree?recursive=true", "/repository/files/src%2Fmain.go/raw?ref=main", "/repository/compare?from=v1~1&to=v1"} {
		r := w.in.Do(t, "GET", p+path, root, nil)
		assert.Equal(t, 200, r.Status, "%s: %s", path, r.String())
	}

	w.commit(t, id, "after.txt", 201)
	w.git(t, dir, false, "pull", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pushed.txt"), []byte("x\n"), 0o644))
	w.git(t, dir, false, "add", "pushed.txt")
	w.git(t, dir, false, "commit", "-q", "-m", "pushed")
	w.git(t, dir, false, "push", "-q", "origin", "main")
	r = w.in.Do(t, "GET", p+"/repository/files/pushed.txt/raw?ref=main", root, nil)
	assert.Equal(t, 200, r.Status, r.String())
	assert.NoDirExists(t, w.repoPath("default", id))

	t.Run("the same storage schedules nothing", func(t *testing.T) {
		r := w.in.Do(t, "PUT", p, root, `{"repository_storage":"second"}`)
		require.Equal(t, 200, r.Status, r.String())
		assert.Len(t, w.moves(t, p+"/repository_storage_moves"), 1)
	})
	t.Run("and back again", func(t *testing.T) {
		r := w.in.Do(t, "PUT", p, root, `{"repository_storage":"default"}`)
		require.Equal(t, 200, r.Status, r.String())
		w.in.WaitJobs(t)
		r = w.in.Do(t, "GET", p, root, nil)
		assert.Equal(t, "default", servertest.Object(t, r)["repository_storage"])
		assert.NoDirExists(t, w.repoPath("second", id))
		back := w.clone(t, "root/alpha")
		assert.FileExists(t, filepath.Join(back, "pushed.txt"))
	})
}

// TestStorage_readOnlyGuard: while a project is read-only (moving), API writes answer 400 and
// pushes 403 with GitLab's message; reads and clones work; no other move can be scheduled.
func TestStorage_readOnlyGuard(t *testing.T) {
	w := newWorld(t)
	id := w.project(t, "alpha")
	p := fmt.Sprintf("/projects/%d", id)
	dir := w.clone(t, "root/alpha")
	w.setReadOnly(t, id, true)
	const msg = "The repository is temporarily read-only. Please try again later."

	r := w.commit(t, id, "blocked.txt", 400)
	assert.Equal(t, map[string]any{"message": msg}, jsonBody(t, r))
	r = w.in.Do(t, "POST", p+"/repository/branches?branch=topic&ref=main", root, nil)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": msg}, jsonBody(t, r))
	r = w.in.Do(t, "DELETE", p+"/repository/tags/v1", root, nil)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": msg}, jsonBody(t, r))

	req, err := http.NewRequest("GET", w.in.URL+"/root/alpha.git/info/refs?service=git-receive-pack", nil)
	require.NoError(t, err)
	req.SetBasicAuth("root", root)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pushed.txt"), []byte("x\n"), 0o644))
	w.git(t, dir, false, "add", "pushed.txt")
	w.git(t, dir, false, "commit", "-q", "-m", "pushed")
	out, err := w.git(t, dir, true, "push", "origin", "main")
	require.Error(t, err)
	assert.Contains(t, out, msg)

	w.clone(t, "root/alpha")
	for _, path := range []string{"/repository/branches", "/repository/files/README.md/raw?ref=main", "/repository/commits"} {
		r := w.in.Do(t, "GET", p+path, root, nil)
		assert.Equal(t, 200, r.Status, "%s: %s", path, r.String())
	}

	r = w.in.Do(t, "POST", p+"/repository_storage_moves", root, `{"destination_storage_name":"second"}`)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"project": []any{"is read-only"}}}, jsonBody(t, r))
	r = w.in.Do(t, "PUT", p, root, `{"repository_storage":"second"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "default", servertest.Object(t, r)["repository_storage"], "a moving project is not moved again")
	assert.Empty(t, w.moves(t, p+"/repository_storage_moves"))

	t.Run("a project read before the switch writes nowhere", func(t *testing.T) {
		w.setReadOnly(t, id, false)
		stale, err := w.in.DB.Client.Project.Get(t.Context(), id)
		require.NoError(t, err)
		require.NoError(t, w.in.Services.Repos.CheckWritable(t.Context(), stale))
		stale.RepositoryStorage = "second" // as if loaded before a move back from "second"
		err = w.in.Services.Repos.CheckWritable(t.Context(), stale)
		require.Error(t, err)
		assert.Equal(t, msg, err.Error())
	})
	t.Run("writable again", func(t *testing.T) {
		w.commit(t, id, "fine.txt", 201)
		w.git(t, dir, false, "pull", "-q", "--rebase")
		w.git(t, dir, false, "push", "-q", "origin", "main")
		assert.True(t, strings.HasPrefix(w.in.Do(t, "GET", p+"/repository/files/pushed.txt/raw?ref=main", root, nil).String(), "200"))
	})
}
