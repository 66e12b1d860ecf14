package issueapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/issue"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ordered lists the iids of an issue list answer in the order given.
func ordered(t *testing.T, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []int{}
	for _, is := range decode[[]map[string]any](t, r) {
		out = append(out, int(is["iid"].(float64)))
	}
	return out
}

// TestIssueVotesAndOrders: upvotes and downvotes from award emoji, the my_reaction_emoji
// filter (alone, None/Any, under not[...]), and each of GitLab's order_by values with sort.
func TestIssueVotesAndOrders(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	g := in.NewGroup(t, "votes", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, atok := in.NewUser(t, "alice")
	_, btok := in.NewUser(t, "bob")
	in.AddGroupMember(t, g, alice, 20)
	id := strconv.Itoa
	proj := "/projects/" + id(p.ID)
	root := servertest.RootToken

	day := func(n int) string { return time.Now().AddDate(0, 0, n).UTC().Format("2006-01-02") }
	mA := decode[map[string]any](t, in.Do(t, "POST", proj+"/milestones", root, url.Values{"title": {"A"}, "due_date": {day(10)}}))
	mB := decode[map[string]any](t, in.Do(t, "POST", proj+"/milestones", root, url.Values{"title": {"B"}, "due_date": {day(5)}}))
	for _, l := range []url.Values{
		{"name": {"p1"}, "color": {"red"}, "priority": {"1"}},
		{"name": {"p2"}, "color": {"red"}, "priority": {"2"}},
	} {
		r := in.Do(t, "POST", proj+"/labels", root, l)
		require.Equal(t, 201, r.Status, r.String())
	}
	ms := func(m map[string]any) string { return strconv.Itoa(int(m["id"].(float64))) }
	newIssue(t, in, p.ID, root, url.Values{"title": {"one"}, "milestone_id": {ms(mA)}, "labels": {"p2"}, "weight": {"3"}})
	newIssue(t, in, p.ID, root, url.Values{"title": {"two"}, "milestone_id": {ms(mB)}, "labels": {"p1"}})
	newIssue(t, in, p.ID, root, url.Values{"title": {"three"}, "labels": {"p1,p2"}, "weight": {"1"}})
	four := newIssue(t, in, p.ID, root, url.Values{"title": {"four"}, "weight": {"5"}})
	assert.Equal(t, float64(5), four["weight"])
	// Positions are set on boards, which Anvil does not have: written directly.
	for iid, pos := range map[int]int{1: 200, 2: 100, 4: 50} {
		in.DB.Client.Issue.Update().Where(issue.ProjectID(p.ID), issue.Iid(iid)).SetRelativePosition(pos).ExecX(ctx)
	}

	award := func(tok string, iid int, name string) {
		t.Helper()
		r := in.Do(t, "POST", proj+"/issues/"+id(iid)+"/award_emoji", tok, url.Values{"name": {name}})
		require.Equal(t, 201, r.Status, r.String())
	}
	award(atok, 3, "thumbsup")
	award(btok, 3, "+1")
	award(root, 3, "thumbsup")
	award(atok, 1, "thumbsup")
	award(btok, 2, "thumbsdown")
	award(btok, 2, "thumbsdown_tone1")
	award(atok, 4, "tada")

	// upvotes and downvotes in a list, counted per issue.
	votes := map[int][2]float64{}
	for _, is := range decode[[]map[string]any](t, in.Do(t, "GET", proj+"/issues", "", nil)) {
		votes[int(is["iid"].(float64))] = [2]float64{is["upvotes"].(float64), is["downvotes"].(float64)}
	}
	assert.Equal(t, map[int][2]float64{1: {1, 0}, 2: {0, 1}, 3: {3, 0}, 4: {0, 0}}, votes)

	// my_reaction_emoji, as alice, in the project, group and global lists.
	for q, want := range map[string][]int{
		"my_reaction_emoji=thumbsup":                        {1, 3},
		"my_reaction_emoji=tada":                            {4},
		"my_reaction_emoji=None":                            {2},
		"my_reaction_emoji=none":                            {2},
		"my_reaction_emoji=Any":                             {1, 3, 4},
		"my_reaction_emoji=rocket":                          {},
		"not[my_reaction_emoji]=thumbsup":                   {2, 4},
		"not[my_reaction_emoji]=tada":                       {1, 2, 3},
		"my_reaction_emoji=Any&not[my_reaction_emoji]=tada": {1, 3},
	} {
		assert.Equal(t, want, iids(t, in.Do(t, "GET", proj+"/issues?"+q, atok, nil)), "project: "+q)
		assert.Equal(t, want, iids(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues?"+q, atok, nil)), "group: "+q)
		assert.Equal(t, want, iids(t, in.Do(t, "GET", "/issues?scope=all&"+q, atok, nil)), "global: "+q)
	}
	// Bob's reactions are his own; anonymous callers have none, and the filter is ignored.
	assert.Equal(t, []int{2, 3}, iids(t, in.Do(t, "GET", proj+"/issues?my_reaction_emoji=Any", btok, nil)))
	assert.Equal(t, []int{1, 2, 3, 4}, iids(t, in.Do(t, "GET", proj+"/issues?my_reaction_emoji=thumbsup", "", nil)))
	// Statistics count with the same filter.
	r := in.Do(t, "GET", proj+"/issues_statistics?my_reaction_emoji=thumbsup", atok, nil)
	assert.JSONEq(t, `{"statistics":{"counts":{"all":2,"closed":0,"opened":2}}}`, string(r.Body))

	// Every order_by GitLab accepts for issues, with its direction and nulls last.
	for q, want := range map[string][]int{
		"order_by=popularity":                          {3, 1, 4, 2},
		"order_by=popularity&sort=asc":                 {4, 2, 1, 3},
		"order_by=milestone_due&sort=asc":              {2, 1, 4, 3},
		"order_by=milestone_due&sort=desc":             {1, 2, 4, 3},
		"order_by=label_priority&sort=asc":             {3, 2, 1, 4},
		"order_by=label_priority":                      {1, 3, 2, 4},
		"order_by=priority&sort=asc":                   {2, 1, 3, 4},
		"order_by=priority":                            {1, 2, 3, 4},
		"order_by=weight&sort=asc":                     {3, 1, 4, 2},
		"order_by=weight":                              {4, 1, 3, 2},
		"order_by=relative_position":                   {4, 2, 1, 3},
		"order_by=relative_position&sort=asc":          {4, 2, 1, 3},
		"order_by=title&sort=asc":                      {4, 1, 3, 2},
		"order_by=created_at&sort=asc":                 {1, 2, 3, 4},
		"order_by=created_at":                          {4, 3, 2, 1},
		"order_by=popularity&labels=p1":                {3, 2},
		"order_by=priority&sort=asc&per_page=2&page=2": {3, 4},
	} {
		assert.Equal(t, want, ordered(t, in.Do(t, "GET", proj+"/issues?"+q, root, nil)), q)
		assert.Equal(t, want, ordered(t, in.Do(t, "GET", "/groups/"+id(g.ID)+"/issues?"+q, root, nil)), "group: "+q)
	}
	// updated_at: each direction follows the timestamps.
	in.Do(t, "PUT", proj+"/issues/2", root, url.Values{"title": {"two, edited"}})
	assert.Equal(t, 2, ordered(t, in.Do(t, "GET", proj+"/issues?order_by=updated_at", root, nil))[0])
	assert.Equal(t, 2, ordered(t, in.Do(t, "GET", proj+"/issues?order_by=updated_at&sort=asc", root, nil))[3])
}

// TestIssueWeightAndEmptyUpdate: weight on create and update (cleared with null, never
// negative), and an update naming no parameter answers 400 as GitLab's at_least_one_of.
func TestIssueWeightAndEmptyUpdate(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "wt", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"
	root := servertest.RootToken
	is := newIssue(t, in, p.ID, root, url.Values{"title": {"w"}, "weight": {"2"}})
	assert.Equal(t, float64(2), is["weight"])

	r := in.Do(t, "PUT", base+"/1", root, url.Values{"weight": {"7"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, float64(7), decode[map[string]any](t, r)["weight"])
	r = in.Do(t, "PUT", base+"/1", root, url.Values{"weight": {"-1"}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"message":{"weight":["must be greater than or equal to 0"]}}`, string(r.Body))
	r = in.Do(t, "POST", base, root, url.Values{"title": {"neg"}, "weight": {"-3"}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"message":{"weight":["must be greater than or equal to 0"]}}`, string(r.Body))
	r = in.Do(t, "PUT", base+"/1", root, url.Values{"weight": {"heavy"}})
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"error":"weight is invalid"}`, string(r.Body))
	r = in.Do(t, "PUT", base+"/1", root, `{"weight": null}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Nil(t, decode[map[string]any](t, r)["weight"])

	const missing = `{"error":"assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, ` +
		`due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type, weight, epic_id, ` +
		`epic_iid are missing, at least one parameter must be provided"}`
	for _, body := range []any{nil, url.Values{"unknown": {"x"}}, `{}`} {
		r = in.Do(t, "PUT", base+"/1", root, body)
		assert.Equal(t, 400, r.Status)
		assert.JSONEq(t, missing, string(r.Body))
	}
	// A key sent as null is given (it clears), as Grape counts it.
	r = in.Do(t, "PUT", base+"/1", root, `{"due_date": null}`)
	assert.Equal(t, 200, r.Status, r.String())
}
