package awardemojiapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnippetAwards: awards on a project snippet and its notes, with the snippet's visibility
// rules; a deleted snippet's awards go with it.
func TestSnippetAwards(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "sa", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	aliceUser, alice := in.NewUser(t, "alice")
	_, bob := in.NewUser(t, "bob")
	in.AddProjectMember(t, p, aliceUser, 40)
	snippets := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	mk := func(visibility string) int {
		r := in.Do(t, "POST", snippets, alice, url.Values{"title": {"s"}, "file_name": {"a.txt"}, "content": {"x"}, "visibility": {visibility}})
		require.Equal(t, 201, r.Status, r.String())
		return int(decode[map[string]any](t, r)["id"].(float64))
	}
	pub, priv := mk("public"), mk("private")
	base := snippets + "/" + strconv.Itoa(pub) + "/award_emoji"

	r := in.Do(t, "POST", base, bob, url.Values{"name": {"tada"}})
	require.Equal(t, 201, r.Status, r.String())
	aw := decode[map[string]any](t, r)
	assert.Equal(t, "Snippet", aw["awardable_type"])
	assert.Equal(t, float64(pub), aw["awardable_id"])
	assert.Equal(t, "tada", aw["name"])
	r = in.Do(t, "GET", base, "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, decode[[]map[string]any](t, r), 1)
	r = in.Do(t, "GET", base+"/"+strconv.Itoa(int(aw["id"].(float64))), alice, nil)
	assert.Equal(t, 200, r.Status, r.String())

	// Anonymous callers cannot award; a private snippet is 404 to a non-member.
	r = in.Do(t, "POST", base, "", url.Values{"name": {"tada"}})
	assert.Equal(t, 404, r.Status, r.String())
	r = in.Do(t, "GET", snippets+"/"+strconv.Itoa(priv)+"/award_emoji", bob, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Snippet Not Found"}`, string(r.Body))
	r = in.Do(t, "POST", snippets+"/"+strconv.Itoa(priv)+"/award_emoji", alice, url.Values{"name": {"heart"}})
	assert.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "GET", snippets+"/999999/award_emoji", alice, nil)
	assert.JSONEq(t, `{"message":"404 Snippet Not Found"}`, string(r.Body))

	// Notes on the snippet take awards too.
	r = in.Do(t, "POST", snippets+"/"+strconv.Itoa(pub)+"/notes", bob, url.Values{"body": {"nice"}})
	require.Equal(t, 201, r.Status, r.String())
	note := int(decode[map[string]any](t, r)["id"].(float64))
	noteBase := snippets + "/" + strconv.Itoa(pub) + "/notes/" + strconv.Itoa(note) + "/award_emoji"
	r = in.Do(t, "POST", noteBase, alice, url.Values{"name": {"thumbsup"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, "Note", decode[map[string]any](t, r)["awardable_type"])
	r = in.Do(t, "GET", noteBase, bob, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, decode[[]map[string]any](t, r), 1)

	// Deleting the snippet removes its awards and its notes' awards.
	r = in.Do(t, "DELETE", snippets+"/"+strconv.Itoa(pub), alice, nil)
	require.Equal(t, 204, r.Status, r.String())
	n, err := in.DB.Client.AwardEmoji.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only the private snippet's award is left")
}

// TestEpicAwards: awards on an epic and its notes, the epic's upvotes and downvotes, the
// my_reaction_emoji filter of the epic list, and confidential epics hidden.
func TestEpicAwards(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "ea", "public", nil)
	aliceUser, alice := in.NewUser(t, "alice")
	_, bob := in.NewUser(t, "bob")
	in.AddGroupMember(t, g, aliceUser, 40)
	epics := "/groups/" + strconv.Itoa(g.ID) + "/epics"
	for _, f := range []url.Values{{"title": {"One"}}, {"title": {"Two"}}, {"title": {"Secret"}, "confidential": {"true"}}} {
		r := in.Do(t, "POST", epics, alice, f)
		require.Equal(t, 201, r.Status, r.String())
	}
	award := func(token, iid, name string) *servertest.Response {
		return in.Do(t, "POST", epics+"/"+iid+"/award_emoji", token, url.Values{"name": {name}})
	}
	r := award(bob, "1", "thumbsup")
	require.Equal(t, 201, r.Status, r.String())
	aw := decode[map[string]any](t, r)
	assert.Equal(t, "Epic", aw["awardable_type"])
	require.Equal(t, 201, award(alice, "1", "+1").Status)
	require.Equal(t, 201, award(alice, "1", "thumbsdown").Status)
	require.Equal(t, 201, award(alice, "2", "heart").Status)
	r = award(bob, "1", "thumbsup")
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Name has already been taken Not Found"}`, string(r.Body))
	r = award(bob, "3", "thumbsup")
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Epic Not Found"}`, string(r.Body))
	r = award("", "1", "thumbsup")
	assert.Equal(t, 404, r.Status, "anonymous callers cannot award")

	r = in.Do(t, "GET", epics+"/1", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	e := decode[map[string]any](t, r)
	assert.Equal(t, float64(2), e["upvotes"])
	assert.Equal(t, float64(1), e["downvotes"])

	titles := func(token, query string) []string {
		t.Helper()
		r := in.Do(t, "GET", epics+"?"+query, token, nil)
		require.Equal(t, 200, r.Status, r.String())
		out := []string{}
		for _, e := range decode[[]map[string]any](t, r) {
			out = append(out, e["title"].(string))
		}
		return out
	}
	assert.Equal(t, []string{"One"}, titles(bob, "my_reaction_emoji=thumbsup"))
	assert.Equal(t, []string{"Two", "One"}, titles(alice, "my_reaction_emoji=Any"))
	assert.Equal(t, []string{"Secret"}, titles(alice, "my_reaction_emoji=None"))
	assert.Equal(t, []string{"Secret", "One"}, titles(alice, "not[my_reaction_emoji]=heart"))
	assert.Equal(t, []string{"Two", "One"}, titles("", "my_reaction_emoji=thumbsup"), "ignored for anonymous callers")

	// Notes on the epic; deleting the epic removes its awards and its notes' awards.
	r = in.Do(t, "POST", epics+"/2/notes", bob, url.Values{"body": {"+1 from me"}})
	require.Equal(t, 201, r.Status, r.String())
	note := strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64)))
	r = in.Do(t, "POST", epics+"/2/notes/"+note+"/award_emoji", alice, url.Values{"name": {"eyes"}})
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "GET", epics+"/2/notes/"+note+"/award_emoji", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "eyes", decode[[]map[string]any](t, r)[0]["name"])
	r = in.Do(t, "DELETE", epics+"/2", servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	n, err := in.DB.Client.AwardEmoji.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, n, "epic 1's three awards are left")
}
