package mergerequestapi_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/mergerequest"

	"github.com/stretchr/testify/require"
)

// listMR describes a merge request the list tests insert directly (a fixture: the lists read
// rows, not repositories).
type listMR struct {
	title, description     string
	author                 *ent.User
	state                  mergerequest.State
	source, target         string
	sourceProject          int // 0: the project itself
	milestone              *ent.Milestone
	labels                 []*ent.Label
	assignees, reviewers   []*ent.User
	approvers              []*ent.User
	mergedBy               *ent.User
	mergedAt, createdAt    time.Time
	draft                  bool
	awards                 map[*ent.User][]string
	iid                    int // 0: the next one
	project                *ent.Project
	mergeUserWhenAutoMerge *ent.User
}

// seedMR inserts m into p and returns it.
func seedMR(t testing.TB, in *servertest.Instance, p *ent.Project, m listMR) *ent.MergeRequest {
	t.Helper()
	ctx := context.Background()
	c := in.DB.Client
	if m.iid == 0 {
		n, err := c.MergeRequest.Query().Where(mergerequest.ProjectID(p.ID)).Count(ctx)
		require.NoError(t, err)
		m.iid = n + 1
	}
	if m.state == "" {
		m.state = mergerequest.StateOpened
	}
	if m.source == "" {
		m.source = "feature"
	}
	if m.target == "" {
		m.target = "main"
	}
	cr := c.MergeRequest.Create().SetProjectID(p.ID).SetIid(m.iid).SetTitle(m.title).SetState(m.state).
		SetSourceBranch(m.source).SetTargetBranch(m.target).SetDraft(m.draft).SetSourceProjectID(p.ID)
	if m.sourceProject != 0 {
		cr.SetSourceProjectID(m.sourceProject)
	}
	if m.description != "" {
		cr.SetDescription(m.description)
	}
	if m.author != nil {
		cr.SetAuthorID(m.author.ID)
	}
	if m.milestone != nil {
		cr.SetMilestoneID(m.milestone.ID)
	}
	if m.mergedBy != nil {
		cr.SetMergedByID(m.mergedBy.ID)
	}
	if m.mergeUserWhenAutoMerge != nil {
		cr.SetMergeUserID(m.mergeUserWhenAutoMerge.ID).SetMergeWhenPipelineSucceeds(true)
	}
	if !m.mergedAt.IsZero() {
		cr.SetMergedAt(m.mergedAt)
	}
	if !m.createdAt.IsZero() {
		cr.SetCreatedAt(m.createdAt).SetUpdatedAt(m.createdAt)
	}
	mr, err := cr.Save(ctx)
	require.NoError(t, err)
	for _, l := range m.labels {
		c.MergeRequestLabel.Create().SetMergeRequestID(mr.ID).SetLabelID(l.ID).ExecX(ctx)
	}
	for _, u := range m.assignees {
		c.MergeRequestAssignee.Create().SetMergeRequestID(mr.ID).SetUserID(u.ID).ExecX(ctx)
	}
	for _, u := range m.reviewers {
		c.MergeRequestReviewer.Create().SetMergeRequestID(mr.ID).SetUserID(u.ID).ExecX(ctx)
	}
	for _, u := range m.approvers {
		c.MergeRequestApproval.Create().SetMergeRequestID(mr.ID).SetUserID(u.ID).ExecX(ctx)
	}
	for u, names := range m.awards {
		for _, n := range names {
			c.AwardEmoji.Create().SetName(n).SetUserID(u.ID).SetAwardableType("MergeRequest").SetAwardableID(mr.ID).ExecX(ctx)
		}
	}
	return mr
}

// rootUser is the instance's root.
func rootUser(t testing.TB, in *servertest.Instance) *ent.User {
	t.Helper()
	u, err := in.DB.Client.User.Query().Order(ent.Asc("id")).First(context.Background())
	require.NoError(t, err)
	require.Equal(t, "root", u.Username)
	return u
}

// listIIDs are the iids of a merge request list answer, sorted.
func listIIDs(t testing.TB, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []int{}
	for _, mr := range servertest.List(t, r) {
		out = append(out, int(mr["iid"].(float64)))
	}
	sort.Ints(out)
	return out
}

// listTitles are the titles of a list answer, in order.
func listTitles(t testing.TB, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, mr := range servertest.List(t, r) {
		out = append(out, mr["title"].(string))
	}
	return out
}

// listTitlesSorted are the titles of a list answer, sorted.
func listTitlesSorted(t testing.TB, r *servertest.Response) []string {
	t.Helper()
	out := listTitles(t, r)
	sort.Strings(out)
	return out
}
