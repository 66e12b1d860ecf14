package groupapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroupDetail_projectsAndSharedProjects(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "home", "public", nil)
	other := in.NewGroup(t, "other", "public", nil)
	own := in.NewProject(t, g, "own", "public")
	hidden := in.NewProject(t, g, "hidden", "private")
	shared := in.NewProject(t, other, "shared", "public")
	require.NoError(t, in.DB.Client.ProjectGroupLink.Create().SetProjectID(shared.ID).SetGroupID(g.ID).SetGroupAccess(30).Exec(t.Context()))
	_, tok := in.NewUser(t, "visitor")

	type proj struct {
		ID                int    `json:"id"`
		PathWithNamespace string `json:"path_with_namespace"`
	}
	var body struct {
		Projects       []proj `json:"projects"`
		SharedProjects []proj `json:"shared_projects"`
	}
	r := in.Do(t, "GET", "/groups/home", tok, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	require.NoError(t, json.Unmarshal(r.Body, &body))
	assert.Equal(t, []proj{{own.ID, "home/own"}}, body.Projects, "a private project stays hidden from a non-member")
	assert.Equal(t, []proj{{shared.ID, "other/shared"}}, body.SharedProjects)

	r = in.Do(t, "GET", "/groups/home", servertest.RootToken, nil)
	require.NoError(t, json.Unmarshal(r.Body, &body))
	assert.Equal(t, []proj{{own.ID, "home/own"}, {hidden.ID, "home/hidden"}}, body.Projects)

	r = in.Do(t, "GET", "/groups/home?with_projects=false", tok, nil)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &raw))
	assert.NotContains(t, raw, "projects")
	assert.NotContains(t, raw, "shared_projects")
}
