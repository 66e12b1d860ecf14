package issueapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueListFilters: each filter of the issue lists alone, with None/Any and under
// not[...], in the project, group and global lists.
func TestIssueListFilters(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	g := in.NewGroup(t, "f", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, atok := in.NewUser(t, "alice")
	bob, btok := in.NewUser(t, "bob")
	in.AddGroupMember(t, g, alice, 20)
	in.AddGroupMember(t, g, bob, 20)
	past, future := time.Now().AddDate(0, 0, -3).UTC(), time.Now().AddDate(0, 1, 0).UTC()
	v1 := in.DB.Client.Milestone.Create().SetTitle("v1").SetIid(1).SetProjectID(p.ID).SetDueDate(future).SaveX(ctx)
	v0 := in.DB.Client.Milestone.Create().SetTitle("v0").SetIid(1).SetGroupID(g.ID).SetStartDate(past).SaveX(ctx)
	id := strconv.Itoa

	newIssue(t, in, p.ID, atok, url.Values{"title": {"Login broken"}, "labels": {"bug,ui"},
		"assignee_ids[]": {id(bob.ID)}, "milestone_id": {id(v1.ID)}})
	newIssue(t, in, p.ID, btok, url.Values{"title": {"Crash"}, "labels": {"bug"}, "description": {"stack trace"}})
	newIssue(t, in, p.ID, atok, url.Values{"title": {"Docs typo"}, "description": {"a crash course"},
		"assignee_id": {id(alice.ID)}, "milestone_id": {id(v0.ID)}, "due_date": {past.Format("2006-01-02")}})
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"Outage"}, "issue_type": {"incident"}, "confidential": {"true"}})
	r := in.Do(t, "PUT", "/projects/"+id(p.ID)+"/issues/2", btok, url.Values{"state_event": {"close"}})
	require.Equal(t, 200, r.Status, r.String())

	cases := []struct {
		query string
		want  []int
	}{
		{"", []int{1, 2, 3, 4}},
		{"state=opened", []int{1, 3, 4}},
		{"state=closed", []int{2}},
		{"state=all", []int{1, 2, 3, 4}},
		{"labels=bug", []int{1, 2}},
		{"labels=bug,ui", []int{1}},
		{"labels=ui,bug", []int{1}},
		{"labels=bug,nolabel", []int{}},
		{"labels[]=bug&labels[]=ui", []int{1}},
		{"labels=None", []int{3, 4}},
		{"labels=any", []int{1, 2}},
		{"labels=nolabel", []int{}},
		{"not[labels]=ui", []int{2, 3, 4}},
		{"not[labels]=bug,ui", []int{3, 4}},
		{"milestone=v1", []int{1}},
		{"milestone=v0", []int{3}},
		{"milestone=None", []int{2, 4}},
		{"milestone=Any", []int{1, 3}},
		{"milestone=Upcoming", []int{1}},
		{"milestone=Started", []int{3}},
		{"not[milestone]=v1", []int{2, 3, 4}},
		{"not[milestone]=Started", []int{1, 2, 4}},
		{"author_id=" + id(alice.ID), []int{1, 3}},
		{"not[author_id]=" + id(alice.ID), []int{2, 4}},
		{"author_username=bob", []int{2}},
		{"not[author_username]=bob", []int{1, 3, 4}},
		{"assignee_id=None", []int{2, 4}},
		{"assignee_id=Any", []int{1, 3}},
		{"assignee_id=" + id(bob.ID), []int{1}},
		{"not[assignee_id]=" + id(bob.ID), []int{2, 3, 4}},
		{"assignee_username=alice", []int{3}},
		{"assignee_username[]=alice", []int{3}},
		{"not[assignee_username]=alice", []int{1, 2, 4}},
		{"iids[]=1&iids[]=3", []int{1, 3}},
		{"not[iids][]=1", []int{2, 3, 4}},
		{"search=crash", []int{2, 3}},
		{"search=crash&in=title", []int{2}},
		{"search=crash&in=description", []int{3}},
		{"confidential=true", []int{4}},
		{"confidential=false", []int{1, 2, 3}},
		{"issue_type=incident", []int{4}},
		{"not[issue_type]=incident", []int{1, 2, 3}},
		{"created_after=" + future.Format(time.RFC3339), []int{}},
		{"created_before=" + future.Format(time.RFC3339), []int{1, 2, 3, 4}},
		{"updated_after=" + past.Format(time.RFC3339), []int{1, 2, 3, 4}},
		{"updated_before=" + past.Format(time.RFC3339), []int{}},
		{"due_date=0", []int{1, 2, 4}},
		{"due_date=any", []int{3}},
		{"due_date=overdue", []int{3}},
		{"due_date=today", []int{}},
		{"due_date=next_month_and_previous_two_weeks", []int{3}},
		{"scope=created_by_me", []int{4}},
		{"scope=assigned_to_me", []int{}},
		{"labels=bug&state=opened&milestone=v1", []int{1}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			assert.Equal(t, c.want, iids(t, in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues?"+c.query, servertest.RootToken, nil)), "project")
			assert.Equal(t, c.want, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues?"+c.query, servertest.RootToken, nil)), "group")
			q := c.query
			if q == "" || (q[:5] != "scope") {
				q += "&scope=all"
			}
			assert.Equal(t, c.want, iids(t, in.Do(t, "GET", "/issues?"+q, servertest.RootToken, nil)), "global")
		})
	}

	// Ordering, and bad values named.
	r = in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues?order_by=title&sort=asc", servertest.RootToken, nil)
	var titles []string
	for _, is := range decode[[]map[string]any](t, r) {
		titles = append(titles, is["title"].(string))
	}
	assert.Equal(t, []string{"Crash", "Docs typo", "Login broken", "Outage"}, titles)
	r = in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues", servertest.RootToken, nil)
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, float64(4), decode[[]map[string]any](t, r)[0]["iid"], "newest first by default")
	for q, msg := range map[string]string{
		"state=open":         `{"error":"state does not have a valid value"}`,
		"order_by=upvotes":   `{"error":"order_by does not have a valid value"}`,
		"author_id=me":       `{"error":"author_id is invalid"}`,
		"assignee_id=x":      `{"error":"assignee_id is invalid"}`,
		"iids[]=a":           `{"error":"iids is invalid"}`,
		"scope=mine":         `{"error":"scope does not have a valid value"}`,
		"due_date=soon":      `{"error":"due_date does not have a valid value"}`,
		"created_after=soon": `{"error":"created_after is invalid"}`,
	} {
		r := in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues?"+q, servertest.RootToken, nil)
		assert.Equal(t, 400, r.Status, q)
		assert.JSONEq(t, msg, string(r.Body), q)
	}
	// GET /issues needs a signed-in user unless scope=all.
	r = in.Do(t, "GET", "/issues", "", nil)
	assert.Equal(t, 401, r.Status)
	assert.Equal(t, []int{1, 2, 3}, iids(t, in.Do(t, "GET", "/issues?scope=all", "", nil)))

	// A group's list leaves archived projects out unless non_archived=false.
	in.DB.Client.Project.UpdateOneID(p.ID).SetArchived(true).ExecX(ctx)
	assert.Equal(t, []int{}, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues", servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues?non_archived=false", servertest.RootToken, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, iids(t, in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues", servertest.RootToken, nil)))
	in.DB.Client.Project.UpdateOneID(p.ID).SetArchived(false).ExecX(ctx)

	// Statistics follow the same filters.
	r = in.Do(t, "GET", "/projects/"+id(p.ID)+"/issues_statistics?labels=bug", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, `{"statistics":{"counts":{"all":2,"closed":1,"opened":1}}}`, string(r.Body))
}
