package storagemoveapi_test

import (
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStorageMoves_endpoints: the moves API's JSON, pagination, errors and administrator-only
// guard.
func TestStorageMoves_endpoints(t *testing.T) {
	w := newWorld(t)
	alpha, beta := w.project(t, "alpha"), w.project(t, "beta")
	pa, pb := fmt.Sprintf("/projects/%d", alpha), fmt.Sprintf("/projects/%d", beta)
	proj := servertest.Object(t, w.in.Do(t, "GET", pa, root, nil))

	r := w.in.Do(t, "POST", pa+"/repository_storage_moves", root, `{"destination_storage_name":"second"}`)
	require.Equal(t, 201, r.Status, r.String())
	created := servertest.Object(t, r)
	moveID := int(created["id"].(float64))
	assert.Equal(t, map[string]any{
		"id": created["id"], "created_at": created["created_at"], "state": "scheduled",
		"source_storage_name": "default", "destination_storage_name": "second",
		"project": map[string]any{
			"id": float64(alpha), "description": nil, "name": "alpha", "name_with_namespace": "Administrator / alpha",
			"path": "alpha", "path_with_namespace": "root/alpha", "created_at": proj["created_at"],
		},
	}, created, "the move as scheduled")
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, created["created_at"])

	w.in.WaitJobs(t) // the move's job has run
	one := w.in.Do(t, "GET", fmt.Sprintf("/project_repository_storage_moves/%d", moveID), root, nil)
	require.Equal(t, 200, one.Status, one.String())
	finished := servertest.Object(t, one)
	created["state"] = "finished"
	assert.Equal(t, created, finished)
	r = w.in.Do(t, "GET", fmt.Sprintf("%s/repository_storage_moves/%d", pa, moveID), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, finished, servertest.Object(t, r))

	// A second move (back), newest first in the lists.
	r = w.in.Do(t, "POST", pa+"/repository_storage_moves", root, `{"destination_storage_name":"default"}`)
	require.Equal(t, 201, r.Status, r.String())
	second := int(servertest.Object(t, r)["id"].(float64))
	w.in.WaitJobs(t)
	r = w.in.Do(t, "GET", "/project_repository_storage_moves?per_page=1", root, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "1", r.Header.Get("X-Per-Page"))
	assert.Equal(t, "2", r.Header.Get("X-Next-Page"))
	page := servertest.List(t, r)
	require.Len(t, page, 1)
	assert.Equal(t, float64(second), page[0]["id"])
	all := w.moves(t, pa+"/repository_storage_moves")
	require.Len(t, all, 2)
	assert.Equal(t, []any{float64(second), float64(moveID)}, []any{all[0]["id"], all[1]["id"]})
	assert.Empty(t, w.moves(t, pb+"/repository_storage_moves"))

	t.Run("errors", func(t *testing.T) {
		for _, c := range []struct {
			method, path, body string
			status             int
			want               any
		}{
			{"GET", "/project_repository_storage_moves/999999", "", 404, map[string]any{"message": "404 Not found"}},
			{"GET", "/project_repository_storage_moves/abc", "", 400, map[string]any{"error": "repository_storage_move_id is invalid"}},
			{"GET", fmt.Sprintf("%s/repository_storage_moves/%d", pb, moveID), "", 404, map[string]any{"message": "404 Not found"}},
			{"GET", "/projects/999999/repository_storage_moves", "", 404, map[string]any{"message": "404 Project Not Found"}},
			{"POST", "/projects/999999/repository_storage_moves", "{}", 404, map[string]any{"message": "404 Project Not Found"}},
			{"POST", pb + "/repository_storage_moves", `{"destination_storage_name":"nope"}`, 400,
				map[string]any{"message": map[string]any{"destination_storage_name": []any{"is not included in the list"}}}},
			{"POST", "/project_repository_storage_moves", `{}`, 400, map[string]any{"error": "source_storage_name is missing"}},
			{"POST", "/project_repository_storage_moves", `{"source_storage_name":"nope"}`, 400,
				map[string]any{"error": "source_storage_name does not have a valid value"}},
			{"POST", "/project_repository_storage_moves", `{"source_storage_name":"default","destination_storage_name":"nope"}`, 400,
				map[string]any{"error": "destination_storage_name does not have a valid value"}},
		} {
			var body any
			if c.body != "" {
				body = c.body
			}
			r := w.in.Do(t, c.method, c.path, root, body)
			require.Equal(t, c.status, r.Status, "%s %s: %s", c.method, c.path, r.String())
			assert.Equal(t, c.want, jsonBody(t, r), "%s %s", c.method, c.path)
		}
	})

	t.Run("administrators only", func(t *testing.T) {
		owner, tok := w.in.NewUser(t, "owner")
		owned, err := w.in.DB.Client.Project.Get(t.Context(), w.project(t, "owned"))
		require.NoError(t, err)
		w.in.AddProjectMember(t, owned, owner, 50)
		routes := []struct{ method, path string }{
			{"GET", "/project_repository_storage_moves"},
			{"GET", fmt.Sprintf("/project_repository_storage_moves/%d", moveID)},
			{"POST", "/project_repository_storage_moves"},
			{"GET", pa + "/repository_storage_moves"},
			{"GET", fmt.Sprintf("%s/repository_storage_moves/%d", pa, moveID)},
			{"POST", pa + "/repository_storage_moves"},
			{"POST", "/projects/root%2Fowned/repository_storage_moves"},
		}
		for _, rt := range routes {
			r := w.in.Do(t, rt.method, rt.path, tok, nil)
			require.Equal(t, 403, r.Status, "%s %s: %s", rt.method, rt.path, r.String())
			assert.Equal(t, map[string]any{"message": "403 Forbidden"}, jsonBody(t, r))
			r = w.in.Do(t, rt.method, rt.path, "", nil)
			require.Equal(t, 401, r.Status, "%s %s: %s", rt.method, rt.path, r.String())
			assert.Equal(t, map[string]any{"message": "401 Unauthorized"}, jsonBody(t, r))
		}
	})

	t.Run("all projects of a storage", func(t *testing.T) {
		r := w.in.Do(t, "POST", "/project_repository_storage_moves", root, `{"source_storage_name":"default","destination_storage_name":"second"}`)
		require.Equal(t, 202, r.Status, r.String())
		assert.Equal(t, map[string]any{"message": "202 Accepted"}, jsonBody(t, r))
		w.in.WaitJobs(t)
		for _, id := range []int{alpha, beta} {
			got := servertest.Object(t, w.in.Do(t, "GET", fmt.Sprintf("/projects/%d", id), root, nil))
			assert.Equal(t, "second", got["repository_storage"], "project %d", id)
			assert.NoDirExists(t, w.repoPath("default", id))
			assert.DirExists(t, w.repoPath("second", id))
		}
		n, err := w.in.DB.Client.Project.Query().Count(t.Context())
		require.NoError(t, err)
		assert.Len(t, w.moves(t, "/project_repository_storage_moves?per_page=100"), 2+n, "one move per project")
	})
}
