package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpicIssues: issues added to, listed in and removed from an epic; an issue moves between
// epics; the epic's inherited dates come from its issues' milestones; refusals as GitLab's.
func TestEpicIssues(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "work", "public", nil)
	sub := in.NewGroup(t, "team", "public", g)
	other := in.NewGroup(t, "elsewhere", "public", nil)
	p := in.NewProject(t, sub, "app", "public")
	far := in.NewProject(t, other, "far", "public")
	gid := strconv.Itoa(g.ID)
	tok := servertest.RootToken
	newEpic(t, in, g.ID, tok, url.Values{"title": {"Plan"}})
	e2 := newEpic(t, in, g.ID, tok, url.Values{"title": {"Other plan"}})
	base := "/groups/" + gid + "/epics/"
	ms := func(owner, title, start, due string) string {
		r := in.Do(t, "POST", owner+"/milestones", tok, url.Values{"title": {title}, "start_date": {start}, "due_date": {due}})
		require.Equal(t, 201, r.Status, r.String())
		return strconv.Itoa(num(servertest.Object(t, r)["id"]))
	}
	m1 := ms("/projects/"+strconv.Itoa(p.ID), "m1", "2030-01-10", "2030-02-01")
	m2 := ms("/groups/"+gid, "m2", "2030-01-05", "2030-01-20")
	newIssue := func(project int, form url.Values) map[string]any {
		r := in.Do(t, "POST", "/projects/"+strconv.Itoa(project)+"/issues", tok, form)
		require.Equal(t, 201, r.Status, r.String())
		return servertest.Object(t, r)
	}
	a := newIssue(p.ID, url.Values{"title": {"A"}, "milestone_id": {m1}})
	b := newIssue(p.ID, url.Values{"title": {"B"}, "milestone_id": {m2}, "confidential": {"true"}})
	c := newIssue(far.ID, url.Values{"title": {"C"}})
	sid := func(m map[string]any) string { return strconv.Itoa(num(m["id"])) }

	r := in.Do(t, "POST", base+"1/issues/"+sid(a), tok, nil)
	require.Equal(t, 201, r.Status, r.String())
	link := servertest.Object(t, r)
	assert.Equal(t, []string{"epic", "id", "issue", "relative_position"}, servertest.Keys(link))
	assert.Equal(t, 1, num(link["epic"].(map[string]any)["iid"]))
	assert.Equal(t, "A", link["issue"].(map[string]any)["title"])
	require.Equal(t, 201, in.Do(t, "POST", base+"1/issues/"+sid(b), tok, nil).Status)

	// The epic's dates now come from the milestones: earliest start, latest due.
	got := servertest.Object(t, in.Do(t, "GET", base+"1", tok, nil))
	assert.Equal(t, "2030-01-05", got["start_date"])
	assert.Equal(t, "2030-01-05", got["start_date_from_milestones"])
	assert.Equal(t, "2030-01-05", got["start_date_from_inherited_source"])
	assert.Equal(t, "2030-02-01", got["due_date"])
	assert.Equal(t, "2030-02-01", got["due_date_from_milestones"])
	// A fixed date wins over the inherited one.
	r = in.Do(t, "PUT", base+"1", tok, url.Values{"start_date_fixed": {"2029-12-01"}, "start_date_is_fixed": {"true"}})
	assert.Equal(t, "2029-12-01", servertest.Object(t, r)["start_date"])
	assert.Equal(t, "2030-01-05", servertest.Object(t, r)["start_date_from_milestones"])

	// The list: the issue with its link id; the confidential one only for those who see it.
	r = in.Do(t, "GET", base+"1/issues", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, num(link["id"]), num(list[0]["epic_issue_id"]))
	assert.Contains(t, list[0], "relative_position")
	assert.Equal(t, "A", list[0]["title"])
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	_, utok := in.NewUser(t, "user")
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"1/issues", utok, nil)), 1)
	assert.Equal(t, 401, in.Do(t, "GET", base+"1/issues", "", nil).Status)

	// Refusals.
	servertest.RequireError(t, in.Do(t, "POST", base+"1/issues/"+sid(a), tok, nil), 409, "message", "Issue(s) already assigned")
	servertest.RequireError(t, in.Do(t, "POST", base+"1/issues/"+sid(c), tok, nil), 404, "message", "No matching issue found. Make sure that you are adding a valid issue URL.")
	servertest.RequireError(t, in.Do(t, "POST", base+"1/issues/999999", tok, nil), 404, "message", "No matching issue found. Make sure that you are adding a valid issue URL.")
	// A non-member cannot relate issues; a confidential epic takes confidential issues only.
	servertest.RequireError(t, in.Do(t, "POST", base+"2/issues/"+sid(a), utok, nil), 404, "message", "No matching issue found. Make sure that you are adding a valid issue URL.")
	secret := newEpic(t, in, g.ID, tok, url.Values{"title": {"Secret"}, "confidential": {"true"}})
	servertest.RequireError(t, in.Do(t, "POST", base+strconv.Itoa(num(secret["iid"]))+"/issues/"+sid(a), tok, nil), 409, "message",
		"Cannot assign a confidential epic to a non-confidential issue. Make the epic public or the issue confidential and try again")
	// An epic holding a public issue cannot turn confidential.
	r = in.Do(t, "PUT", base+"1", tok, url.Values{"confidential": {"true"}})
	assert.Equal(t, map[string]any{"message": map[string]any{"confidential": []any{"Cannot make the epic confidential if it contains non-confidential issues"}}}, servertest.Object(t, r))

	// Moving an issue to another epic takes it out of the first.
	require.Equal(t, 201, in.Do(t, "POST", base+strconv.Itoa(num(e2["iid"]))+"/issues/"+sid(a), tok, nil).Status)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"1/issues", tok, nil)), 1)

	// Remove: 200 with the link; again is 404.
	bl := servertest.List(t, in.Do(t, "GET", base+"1/issues", tok, nil))[0]
	r = in.Do(t, "DELETE", base+"1/issues/"+strconv.Itoa(num(bl["epic_issue_id"])), tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "B", servertest.Object(t, r)["issue"].(map[string]any)["title"])
	assert.Equal(t, 404, in.Do(t, "DELETE", base+"1/issues/"+strconv.Itoa(num(bl["epic_issue_id"])), tok, nil).Status)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"1/issues", tok, nil)), 0)
}
