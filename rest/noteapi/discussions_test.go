package noteapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notesOf are the notes of a discussion's JSON.
func notesOf(d map[string]any) []map[string]any {
	var out []map[string]any
	for _, n := range d["notes"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// TestIssueDiscussions: list, read, start a thread, reply (an individual note becomes a
// thread), change and delete a thread's notes.
func TestIssueDiscussions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "talk", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 30)
	_, bobTok := in.NewUser(t, "bob")
	base := newIssue(t, in, p.ID, tok, url.Values{"title": {"Crash"}})

	// A thread: 201 with the discussion, its first note a DiscussionNote.
	d := post(t, in, base+"/discussions", tok, 201, url.Values{"body": {"Thread start"}})
	require.Regexp(t, `^[0-9a-f]{40}$`, d["id"])
	assert.Equal(t, false, d["individual_note"])
	first := notesOf(d)[0]
	assert.Equal(t, "DiscussionNote", first["type"])
	assert.Equal(t, false, first["resolvable"])
	did := d["id"].(string)

	// A reply by another user joins the thread.
	reply := post(t, in, base+"/discussions/"+did+"/notes", bobTok, 201, url.Values{"body": {"Reply"}, "note_id": {itoa(id(first["id"]))}})
	assert.Equal(t, "DiscussionNote", reply["type"])
	assert.Equal(t, "bob", reply["author"].(map[string]any)["username"])
	r := in.Do(t, "GET", base+"/discussions/"+did, "", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, []any{first, map[string]any(reply)}, got["notes"])

	// An individual note turns into a thread when replied to.
	single := post(t, in, base+"/notes", tok, 201, url.Values{"body": {"Standalone"}})
	r = in.Do(t, "GET", base+"/discussions", "", nil)
	ds := servertest.List(t, r)
	require.Len(t, ds, 2)
	assert.Equal(t, did, ds[0]["id"])
	assert.Equal(t, true, ds[1]["individual_note"])
	sid := ds[1]["id"].(string)
	post(t, in, base+"/discussions/"+sid+"/notes", bobTok, 201, url.Values{"body": {"Now a thread"}})
	got = servertest.Object(t, in.Do(t, "GET", base+"/discussions/"+sid, "", nil))
	assert.Equal(t, false, got["individual_note"])
	ns := notesOf(got)
	require.Len(t, ns, 2)
	assert.Equal(t, single["id"], ns[0]["id"])
	assert.Equal(t, "DiscussionNote", ns[0]["type"])
	assert.Equal(t, "DiscussionNote", ns[1]["type"])

	// Pages count discussions.
	r = in.Do(t, "GET", base+"/discussions?per_page=1&page=2", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "2", r.Header.Get("X-Total"))
	assert.Equal(t, sid, servertest.List(t, r)[0]["id"])

	// Change and delete notes of a thread: the author only (bob is no maintainer).
	path := base + "/discussions/" + did + "/notes/" + itoa(id(first["id"]))
	assert.Equal(t, 403, in.Do(t, "PUT", path, bobTok, url.Values{"body": {"hijack"}}).Status)
	r = in.Do(t, "PUT", path, tok, url.Values{"body": {"Thread start, edited"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "Thread start, edited", servertest.Object(t, r)["body"])
	assert.Equal(t, 403, in.Do(t, "DELETE", path, bobTok, nil).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", path, tok, nil).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", base+"/discussions/"+did+"/notes/"+itoa(id(reply["id"])), bobTok, nil).Status)
	servertest.RequireError(t, in.Do(t, "GET", base+"/discussions/"+did, "", nil), 404, "message", "404 Discussion Not Found")
	servertest.RequireError(t, in.Do(t, "POST", base+"/discussions/"+did+"/notes", tok, url.Values{"body": {"x"}}), 404, "message", "404 Discussion Not Found")

	// A maintainer changes and deletes others' notes (admin_note).
	maint, maintTok := in.NewUser(t, "maint")
	in.AddProjectMember(t, p, maint, 40)
	path = base + "/notes/" + itoa(id(single["id"]))
	assert.Equal(t, 200, in.Do(t, "PUT", path, maintTok, url.Values{"body": {"moderated"}}).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", path, maintTok, nil).Status)

	// A system note's discussion cannot be replied to.
	require.Equal(t, 200, in.Do(t, "PUT", base, tok, url.Values{"description": {"new"}}).Status)
	var sysID string
	for _, d := range servertest.List(t, in.Do(t, "GET", base+"/discussions", "", nil)) {
		if n := notesOf(d)[0]; n["system"] == true {
			assert.Equal(t, "changed the description", n["body"])
			assert.Equal(t, true, d["individual_note"])
			sysID = d["id"].(string)
		}
	}
	require.NotEmpty(t, sysID)
	servertest.RequireError(t, in.Do(t, "POST", base+"/discussions/"+sysID+"/notes", tok, url.Values{"body": {"x"}}),
		400, "message", "400 Bad request - Discussion can not be replied to.")
	servertest.RequireError(t, in.Do(t, "POST", base+"/discussions", tok, url.Values{}), 400, "error", "body is missing")

	// Issue threads are not resolvable; there is no discussion-level resolve for issues.
	th := post(t, in, base+"/discussions", tok, 201, url.Values{"body": {"resolve me"}})
	servertest.RequireError(t, in.Do(t, "PUT", base+"/discussions/"+th["id"].(string)+"/notes/"+itoa(id(notesOf(th)[0]["id"])), tok,
		url.Values{"resolved": {"true"}}), 400, "message", "400 Bad request - Note is not resolvable")
	assert.Equal(t, 404, in.Do(t, "PUT", base+"/discussions/"+th["id"].(string), tok, url.Values{"resolved": {"true"}}).Status)
}
