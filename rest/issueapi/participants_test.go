package issueapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIssueParticipants: GET .../issues/:issue_iid/participants lists the author, assignees
// and commenters once each, in that order, as user summaries; system and (for those who may
// not read them) internal comments do not count; a hidden issue is 404.
func TestIssueParticipants(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "parts", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, atok := in.NewUser(t, "alice")
	bob, btok := in.NewUser(t, "bob")
	carol, ctok := in.NewUser(t, "carol")
	_, dtok := in.NewUser(t, "dave")
	in.AddGroupMember(t, g, alice, 30)
	in.AddGroupMember(t, g, bob, 20)
	in.AddGroupMember(t, g, carol, 30)
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues"

	newIssue(t, in, p.ID, atok, url.Values{"title": {"one"}, "assignee_ids": {strconv.Itoa(bob.ID)}})
	for _, c := range []struct{ tok, body, internal string }{
		{ctok, "first", "false"}, {atok, "again", "false"}, {btok, "reply", "false"},
	} {
		r := in.Do(t, "POST", base+"/1/notes", c.tok, url.Values{"body": {c.body}, "internal": {c.internal}})
		require.Equal(t, 201, r.Status, r.String())
	}
	r := in.Do(t, "POST", base+"/1/notes", servertest.RootToken, url.Values{"body": {"secret"}, "internal": {"true"}})
	require.Equal(t, 201, r.Status, r.String())

	usernames := func(r *servertest.Response) []string {
		t.Helper()
		require.Equal(t, 200, r.Status, r.String())
		out := []string{}
		for _, u := range decode[[]map[string]any](t, r) {
			out = append(out, u["username"].(string))
		}
		return out
	}
	r = in.Do(t, "GET", base+"/1/participants", dtok, nil)
	assert.Equal(t, []string{"alice", "bob", "carol"}, usernames(r))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	first := decode[[]map[string]any](t, r)[0]
	assert.Equal(t, map[string]any{"id": float64(alice.ID), "username": "alice", "name": first["name"],
		"state": "active", "locked": false, "avatar_url": first["avatar_url"], "web_url": in.URL + "/alice"}, first)
	assert.Equal(t, []string{"alice", "bob", "carol", "root"}, usernames(in.Do(t, "GET", base+"/1/participants", ctok, nil)))

	r = in.Do(t, "GET", base+"/9/participants", atok, nil)
	assert.Equal(t, 404, r.Status, r.String())
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))
	newIssue(t, in, p.ID, atok, url.Values{"title": {"secret"}, "confidential": {"true"}})
	assert.Equal(t, 404, in.Do(t, "GET", base+"/2/participants", dtok, nil).Status)
	assert.Equal(t, []string{"alice"}, usernames(in.Do(t, "GET", base+"/2/participants", btok, nil)))
}
