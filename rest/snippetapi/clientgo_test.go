package snippetapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestSnippetsClientGo: the snippet operations through GitLab's Go client.
func TestSnippetsClientGo(t *testing.T) {
	in := servertest.Start(t)
	u, tok := in.NewUser(t, "gopher")
	g := in.NewGroup(t, "grp", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	in.AddProjectMember(t, p, u, 30)
	c := in.Client(t, tok)

	sn, _, err := c.Snippets.CreateSnippet(&gitlab.CreateSnippetOptions{
		Title: gitlab.Ptr("go"), Visibility: gitlab.Ptr(gitlab.PublicVisibility),
		Files: &[]*gitlab.CreateSnippetFileOptions{{FilePath: gitlab.Ptr("main.go"), Content: gitlab.Ptr("package main")}},
	})
	require.NoError(t, err)
	assert.Equal(t, "main.go", sn.FileName)
	assert.Equal(t, "gopher", sn.Author.Username)
	require.Len(t, sn.Files, 1)

	got, _, err := c.Snippets.GetSnippet(sn.ID)
	require.NoError(t, err)
	assert.Equal(t, sn.Title, got.Title)
	content, _, err := c.Snippets.SnippetContent(sn.ID)
	require.NoError(t, err)
	assert.Equal(t, "package main", string(content))
	content, _, err = c.Snippets.SnippetFileContent(sn.ID, "main", "main.go")
	require.NoError(t, err)
	assert.Equal(t, "package main", string(content))

	up, _, err := c.Snippets.UpdateSnippet(sn.ID, &gitlab.UpdateSnippetOptions{
		Files: &[]*gitlab.UpdateSnippetFileOptions{{Action: gitlab.Ptr("create"), FilePath: gitlab.Ptr("go.mod"), Content: gitlab.Ptr("module x")}},
	})
	require.NoError(t, err)
	assert.Len(t, up.Files, 2)

	mine, _, err := c.Snippets.ListSnippets(&gitlab.ListSnippetsOptions{})
	require.NoError(t, err)
	assert.Len(t, mine, 1)
	public, _, err := c.Snippets.ExploreSnippets(&gitlab.ExploreSnippetsOptions{})
	require.NoError(t, err)
	assert.Len(t, public, 1)
	all, _, err := c.Snippets.ListAllSnippets(&gitlab.ListAllSnippetsOptions{})
	require.NoError(t, err)
	assert.Len(t, all, 1)

	ps, _, err := c.ProjectSnippets.CreateSnippet(p.ID, &gitlab.CreateProjectSnippetOptions{
		Title: gitlab.Ptr("in project"), Visibility: gitlab.Ptr(gitlab.PrivateVisibility),
		Files: &[]*gitlab.CreateSnippetFileOptions{{FilePath: gitlab.Ptr("a.sh"), Content: gitlab.Ptr("echo a")}},
	})
	require.NoError(t, err)
	assert.Equal(t, int64(p.ID), ps.ProjectID)
	list, _, err := c.ProjectSnippets.ListSnippets(p.ID, &gitlab.ListProjectSnippetsOptions{})
	require.NoError(t, err)
	assert.Len(t, list, 1)
	_, _, err = c.ProjectSnippets.UpdateSnippet(p.ID, ps.ID, &gitlab.UpdateProjectSnippetOptions{Title: gitlab.Ptr("renamed")})
	require.NoError(t, err)
	content, _, err = c.ProjectSnippets.SnippetContent(p.ID, ps.ID)
	require.NoError(t, err)
	assert.Equal(t, "echo a", string(content))
	_, err = c.ProjectSnippets.DeleteSnippet(p.ID, ps.ID)
	require.NoError(t, err)
	_, err = c.Snippets.DeleteSnippet(sn.ID)
	require.NoError(t, err)
	_, resp, err := c.Snippets.GetSnippet(sn.ID)
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}
