package projectapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProjects_repositoryStorage: an unknown repository_storage is GitLab's validation error
// on update and on create, and the project keeps working; the current storage is accepted.
func TestProjects_repositoryStorage(t *testing.T) {
	in := servertest.Start(t)
	r := in.Do(t, http.MethodPost, "/projects", servertest.RootToken, `{"path":"kept","initialize_with_readme":true}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	var p struct {
		ID int `json:"id"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &p))
	stored := func() string {
		row, err := in.DB.Client.Project.Get(t.Context(), p.ID)
		require.NoError(t, err)
		return row.RepositoryStorage
	}
	require.Equal(t, "default", stored())
	path := "/projects/root%2Fkept"
	const refused = `{"message":{"repository_storage":["is not included in the list"]}}`

	r = in.Do(t, http.MethodPut, path, servertest.RootToken, `{"repository_storage":"nonexistent"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status, r.String())
	assert.JSONEq(t, refused, string(r.Body))
	assert.Equal(t, "default", stored())
	r = in.Do(t, http.MethodGet, path+"/repository/files/README.md/raw?ref=main", servertest.RootToken, nil)
	assert.Equal(t, http.StatusOK, r.Status, "the repository still reads: %s", r.String())
	r = in.Do(t, http.MethodGet, path+"/repository/tree", servertest.RootToken, nil)
	assert.Equal(t, http.StatusOK, r.Status, r.String())

	r = in.Do(t, http.MethodPut, path, servertest.RootToken, `{"repository_storage":"default","description":"d"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "default", stored())

	r = in.Do(t, http.MethodPost, "/projects", servertest.RootToken, `{"path":"refused","repository_storage":"nonexistent"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status, r.String())
	assert.JSONEq(t, refused, string(r.Body))
	assert.Equal(t, http.StatusNotFound, in.Do(t, http.MethodGet, "/projects/root%2Frefused", servertest.RootToken, nil).Status)
}
