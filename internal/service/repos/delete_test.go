package repos_test

import (
	"context"
	"net/http"
	"os"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/protectedbranch"
	"anvil/internal/authz"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoDir returns the absolute directory of a project's repository.
func repoDir(t *testing.T, in *servertest.Instance, p *ent.Project) string {
	t.Helper()
	dir, err := in.Services.Repos.Storage.Path(p.RepositoryStorage, p.DiskPath)
	require.NoError(t, err)
	return dir
}

// TestRepos_GroupDeletion checks that a group deletion removes its projects' repositories only
// once the deletion has committed.
func TestRepos_GroupDeletion(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	root, err := in.Services.Users.FindByRef(ctx, "root")
	require.NoError(t, err)
	group := in.NewGroup(t, "doomed", "private", nil)
	sub := in.NewGroup(t, "sub", "private", group)
	var made []*ent.Project
	for _, ns := range []*ent.Namespace{group, sub} {
		path, id := "p", ns.ID
		p, _, err := in.Services.Projects.Create(ctx, authz.System(root), projects.CreateInput{
			Attributes: projects.Attributes{Path: &path}, NamespaceID: &id, InitializeWithReadme: true,
		})
		require.NoError(t, err)
		p, err = in.DB.Client.Project.Get(ctx, p.ID)
		require.NoError(t, err)
		require.DirExists(t, repoDir(t, in, p))
		made = append(made, p)
	}
	ids := []int{made[0].ID, made[1].ID}
	n, err := in.DB.Client.ProtectedBranch.Query().Where(protectedbranch.ProjectIDIn(ids...), protectedbranch.Name("main")).Count(ctx)
	require.NoError(t, err)
	require.Equal(t, 2, n, "a README makes the default branch, which is protected")

	t.Run("a rolled back deletion keeps the repositories", func(t *testing.T) {
		tx, err := in.DB.Client.Tx(ctx)
		require.NoError(t, err)
		require.NoError(t, in.Services.Repos.DeleteProjects(ent.NewTxContext(ctx, tx), ids))
		for _, p := range made {
			assert.DirExists(t, repoDir(t, in, p), "nothing removed before the commit")
		}
		require.NoError(t, tx.Rollback())
		in.WaitJobs(t) // the removal queued in the rolled back transaction never runs
		for _, p := range made {
			assert.DirExists(t, repoDir(t, in, p))
		}
		n, err := in.DB.Client.Project.Query().Where(project.IDIn(ids...)).Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, 2, n)
	})
	t.Run("a committed deletion removes them", func(t *testing.T) {
		r := in.Do(t, http.MethodDelete, "/groups/doomed", servertest.RootToken, nil)
		require.Equal(t, http.StatusAccepted, r.Status, r.String())
		in.WaitJobs(t) // the repositories are removed by a job queued with the deletion
		for _, p := range made {
			_, err := os.Stat(repoDir(t, in, p))
			assert.True(t, os.IsNotExist(err), "repository of project %d removed", p.ID)
		}
		n, err := in.DB.Client.Project.Query().Where(project.IDIn(ids...)).Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
		n, err = in.DB.Client.ProtectedBranch.Query().Where(protectedbranch.ProjectIDIn(ids...)).Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n, "the README's default branch protection went with the projects")
	})
	t.Run("a project deletion removes its repository", func(t *testing.T) {
		path := "solo"
		p, _, err := in.Services.Projects.Create(ctx, authz.System(root), projects.CreateInput{
			Attributes: projects.Attributes{Path: &path}, InitializeWithReadme: true,
		})
		require.NoError(t, err)
		p, err = in.DB.Client.Project.Get(ctx, p.ID)
		require.NoError(t, err)
		dir := repoDir(t, in, p)
		require.DirExists(t, dir)
		r := in.Do(t, http.MethodDelete, "/projects/root%2Fsolo", servertest.RootToken, nil)
		require.Equal(t, http.StatusAccepted, r.Status, r.String())
		in.WaitJobs(t)
		_, err = os.Stat(dir)
		assert.True(t, os.IsNotExist(err))
	})
}
