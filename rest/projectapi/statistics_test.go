package projectapi_test

import (
	"context"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func statistics(t *testing.T, in *servertest.Instance, p *ent.Project, token string) map[string]any {
	t.Helper()
	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d?statistics=true", p.ID), token, nil)
	require.Equal(t, 200, r.Status, r.String())
	st, _ := servertest.Decode[map[string]any](t, r)["statistics"].(map[string]any)
	return st
}

func TestProjectStatistics(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	in := f.In
	nsID := f.Group.ID
	mk := func(path string, readme bool) *ent.Project {
		vis := "private"
		p, _, err := in.Services.Projects.Create(context.Background(), authz.System(f.Root), projects.CreateInput{
			Attributes: projects.Attributes{Path: &path, Visibility: &vis}, NamespaceID: &nsID, InitializeWithReadme: readme,
		})
		require.NoError(t, err)
		return p
	}
	big, empty := mk("big", true), mk("empty", false)

	st := statistics(t, in, big, f.Tokens["reporter"])
	require.NotNil(t, st)
	assert.Equal(t, float64(1), st["commit_count"])
	size := st["repository_size"].(float64)
	assert.Greater(t, size, float64(0))
	assert.Equal(t, size, st["storage_size"])
	for _, k := range []string{"wiki_size", "lfs_objects_size", "job_artifacts_size", "pipeline_artifacts_size",
		"packages_size", "snippets_size", "uploads_size", "container_registry_size"} {
		assert.Equal(t, float64(0), st[k], k)
	}
	assert.Len(t, st, 11)
	assert.Equal(t, float64(0), statistics(t, in, empty, f.Tokens["reporter"])["commit_count"])

	// Only with statistics=true, and only for Reporters and above.
	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d", big.ID), f.Tokens["reporter"], nil)
	assert.NotContains(t, servertest.Decode[map[string]any](t, r), "statistics")
	assert.Nil(t, statistics(t, in, big, f.Tokens["guest"]))

	// A commit through the API makes them stale; the next read computes them again.
	r = in.Do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", big.ID), f.Tokens["maintainer"],
		`{"branch":"main","commit_message":"more","actions":[{"action":"create","file_path":"more.txt","content":"lots of text"}]}`)
	require.Equal(t, 201, r.Status, r.String())
	st = statistics(t, in, big, f.Tokens["reporter"])
	assert.Equal(t, float64(2), st["commit_count"])
	assert.Greater(t, st["repository_size"].(float64), size)

	t.Run("listings and ordering", func(t *testing.T) {
		r := in.Do(t, "GET", "/projects?statistics=true&order_by=repository_size", servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		rows := servertest.Decode[[]map[string]any](t, r)
		require.Len(t, rows, 2)
		assert.Equal(t, float64(big.ID), rows[0]["id"])
		assert.Equal(t, float64(2), rows[0]["statistics"].(map[string]any)["commit_count"])
		assert.Equal(t, []int{empty.ID, big.ID}, ids(t, in.Do(t, "GET", "/projects?order_by=storage_size&sort=asc", servertest.RootToken, nil)))

		list, _, err := in.Client(t, f.Tokens["reporter"]).Projects.ListProjects(&gitlab.ListProjectsOptions{Statistics: gitlab.Ptr(true)})
		require.NoError(t, err)
		require.Len(t, list, 2)
		for _, p := range list {
			if p.ID == int64(big.ID) {
				require.NotNil(t, p.Statistics)
				assert.Equal(t, int64(2), p.Statistics.CommitCount)
			}
		}
	})

	t.Run("groups and namespaces", func(t *testing.T) {
		total := statistics(t, in, big, servertest.RootToken)["repository_size"].(float64) +
			statistics(t, in, empty, servertest.RootToken)["repository_size"].(float64)
		r := in.Do(t, "GET", "/groups?statistics=true", servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		g := servertest.Decode[[]map[string]any](t, r)[0]
		gs := g["statistics"].(map[string]any)
		assert.Equal(t, total, gs["repository_size"])
		assert.Equal(t, total, gs["storage_size"])
		// Only administrators get group statistics.
		r = in.Do(t, "GET", "/groups?statistics=true", f.Tokens["maintainer"], nil)
		assert.NotContains(t, servertest.Decode[[]map[string]any](t, r)[0], "statistics")

		r = in.Do(t, "GET", fmt.Sprintf("/namespaces/%d", f.Group.ID), servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, total, servertest.Decode[map[string]any](t, r)["root_repository_size"])
	})
}
