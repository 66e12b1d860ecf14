package issueapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestIssuesThroughClientGo: GitLab's Go client creates, filters, updates and reads issues,
// labels and milestones and decodes every answer.
func TestIssuesThroughClientGo(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "cg", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	gl := in.Client(t, servertest.RootToken)

	l, _, err := gl.Labels.CreateLabel(p.ID, &gitlab.CreateLabelOptions{Name: gitlab.Ptr("bug"), Color: gitlab.Ptr("red")})
	require.NoError(t, err)
	assert.Equal(t, "#ff0000", l.Color)
	m, _, err := gl.Milestones.CreateMilestone(p.ID, &gitlab.CreateMilestoneOptions{Title: gitlab.Ptr("v1")})
	require.NoError(t, err)
	one, _, err := gl.Issues.CreateIssue(p.ID, &gitlab.CreateIssueOptions{Title: gitlab.Ptr("first"),
		Labels: &gitlab.LabelOptions{"bug"}, MilestoneID: gitlab.Ptr(m.ID)})
	require.NoError(t, err)
	assert.Equal(t, int64(1), one.IID)
	assert.Equal(t, gitlab.Labels{"bug"}, one.Labels)
	assert.Equal(t, "v1", one.Milestone.Title)
	_, _, err = gl.Issues.CreateIssue(p.ID, &gitlab.CreateIssueOptions{Title: gitlab.Ptr("second")})
	require.NoError(t, err)

	list, resp, err := gl.Issues.ListProjectIssues(p.ID, &gitlab.ListProjectIssuesOptions{Labels: &gitlab.LabelOptions{"bug"}})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "first", list[0].Title)
	assert.Equal(t, int64(1), resp.TotalItems)
	list, _, err = gl.Issues.ListProjectIssues(p.ID, &gitlab.ListProjectIssuesOptions{NotLabels: &gitlab.LabelOptions{"bug"}})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "second", list[0].Title)
	list, _, err = gl.Issues.ListProjectIssues(p.ID, &gitlab.ListProjectIssuesOptions{Milestone: gitlab.Ptr("None")})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "second", list[0].Title)

	upd, _, err := gl.Issues.UpdateIssue(p.ID, 2, &gitlab.UpdateIssueOptions{StateEvent: gitlab.Ptr("close"), AddLabels: &gitlab.LabelOptions{"bug"}})
	require.NoError(t, err)
	assert.Equal(t, "closed", upd.State)
	assert.Equal(t, gitlab.Labels{"bug"}, upd.Labels)
	got, _, err := gl.Issues.GetIssue(p.ID, 2)
	require.NoError(t, err)
	assert.Equal(t, "root", got.ClosedBy.Username)

	ms, _, err := gl.Milestones.ListMilestones(p.ID, &gitlab.ListMilestonesOptions{Title: gitlab.Ptr("v1")})
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, int64(1), ms[0].IID)
	issues, _, err := gl.Milestones.GetMilestoneIssues(p.ID, m.ID, nil)
	require.NoError(t, err)
	require.Len(t, issues, 1)
	labels, _, err := gl.Labels.ListLabels(p.ID, &gitlab.ListLabelsOptions{WithCounts: gitlab.Ptr(true)})
	require.NoError(t, err)
	require.Len(t, labels, 1)
	assert.Equal(t, int64(1), labels[0].OpenIssuesCount)
	assert.Equal(t, int64(1), labels[0].ClosedIssuesCount)

	_, err = gl.Issues.DeleteIssue(p.ID, 2)
	require.NoError(t, err)
	_, resp, err = gl.Issues.GetIssue(p.ID, 2)
	require.Error(t, err)
	assert.Equal(t, 404, resp.StatusCode)
}
