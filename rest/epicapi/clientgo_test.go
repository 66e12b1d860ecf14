package epicapi_test

import (
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestEpicsThroughClientGo: GitLab's Go client creates, lists, reads, updates, links and
// deletes epics, and decodes every answer.
func TestEpicsThroughClientGo(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "client", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	c := in.Client(t, servertest.RootToken)
	due := gitlab.ISOTime(time.Date(2030, 5, 6, 0, 0, 0, 0, time.UTC))

	parent, _, err := c.Epics.CreateEpic(g.ID, &gitlab.CreateEpicOptions{
		Title: gitlab.Ptr("Parent"), Labels: &gitlab.LabelOptions{"x", "y"}, Description: gitlab.Ptr("d"),
		DueDateFixed: &due, DueDateIsFixed: gitlab.Ptr(true), Color: gitlab.Ptr("#00ff00"),
	})
	require.NoError(t, err)
	assert.Equal(t, int64(1), parent.IID)
	assert.Equal(t, []string{"x", "y"}, parent.Labels)
	require.NotNil(t, parent.DueDate)
	assert.Equal(t, "2030-05-06", parent.DueDate.String())
	assert.Equal(t, "root", parent.Author.Username)
	assert.Equal(t, in.URL+"/groups/client/-/epics/1", parent.WebURL)

	child, _, err := c.Epics.CreateEpic(g.ID, &gitlab.CreateEpicOptions{Title: gitlab.Ptr("Child"), ParentID: gitlab.Ptr(parent.ID)})
	require.NoError(t, err)
	assert.Equal(t, parent.ID, child.ParentID)

	list, resp, err := c.Epics.ListGroupEpics(g.ID, &gitlab.ListGroupEpicsOptions{Labels: &gitlab.LabelOptions{"x"}, Sort: gitlab.Ptr("asc")})
	require.NoError(t, err)
	assert.Equal(t, int64(1), resp.TotalItems)
	require.Len(t, list, 1)
	assert.Equal(t, "Parent", list[0].Title)

	kids, _, err := c.Epics.GetEpicLinks(g.ID, parent.IID)
	require.NoError(t, err)
	require.Len(t, kids, 1)
	assert.Equal(t, child.ID, kids[0].ID)

	up, _, err := c.Epics.UpdateEpic(g.ID, child.IID, &gitlab.UpdateEpicOptions{StateEvent: gitlab.Ptr("close"), Title: gitlab.Ptr("Done")})
	require.NoError(t, err)
	assert.Equal(t, "closed", up.State)
	assert.NotNil(t, up.ClosedAt)

	is, _, err := c.Issues.CreateIssue(p.ID, &gitlab.CreateIssueOptions{Title: gitlab.Ptr("work")})
	require.NoError(t, err)
	link, _, err := c.EpicIssues.AssignEpicIssue(g.ID, parent.IID, is.ID)
	require.NoError(t, err)
	assert.Equal(t, parent.ID, link.Epic.ID)
	assert.Equal(t, is.ID, link.Issue.ID)
	issues, _, err := c.EpicIssues.ListEpicIssues(g.ID, parent.IID, nil)
	require.NoError(t, err)
	require.Len(t, issues, 1)
	assert.Equal(t, "work", issues[0].Title)
	_, _, err = c.EpicIssues.RemoveEpicIssue(g.ID, parent.IID, link.ID)
	require.NoError(t, err)

	got, _, err := c.Epics.GetEpic(g.ID, parent.IID)
	require.NoError(t, err)
	assert.Equal(t, "Parent", got.Title)
	_, err = c.Epics.DeleteEpic(g.ID, parent.IID)
	require.NoError(t, err)
	_, resp, err = c.Epics.GetEpic(g.ID, child.IID)
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode, "the child went with its parent")
}
