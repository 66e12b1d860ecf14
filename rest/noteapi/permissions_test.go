package noteapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNotePermissions_privateProject: who reads, writes, changes and deletes others' notes of
// a private project's issue.
func TestNotePermissions_privateProject(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "perm", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	base := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"root's"}})
	want := map[string]struct{ read, create, reply, changeOthers int }{
		"anonymous":  {404, 401, 401, 401},
		"non-member": {404, 404, 404, 404},
		"guest":      {200, 201, 201, 403},
		"reporter":   {200, 201, 201, 403},
		"developer":  {200, 201, 201, 403},
		"maintainer": {200, 201, 201, 200},
		"owner":      {200, 201, 201, 200},
		"admin":      {200, 201, 201, 200},
	}
	for _, r := range servertest.Roles(t, in, "p", g) {
		w := want[r.Name]
		t.Run(r.Name, func(t *testing.T) {
			root := post(t, in, base+"/discussions", servertest.RootToken, 201, url.Values{"body": {"by root"}})
			rootNote := notesOf(root)[0]
			assert.Equal(t, w.read, in.Do(t, "GET", base+"/notes", r.Token, nil).Status, "list")
			assert.Equal(t, w.read, in.Do(t, "GET", base+"/notes/"+itoa(id(rootNote["id"])), r.Token, nil).Status, "read")
			assert.Equal(t, w.read, in.Do(t, "GET", base+"/discussions", r.Token, nil).Status, "discussions")
			assert.Equal(t, w.read, in.Do(t, "GET", base+"/discussions/"+root["id"].(string), r.Token, nil).Status, "discussion")
			assert.Equal(t, w.create, in.Do(t, "POST", base+"/notes", r.Token, url.Values{"body": {"hi"}}).Status, "create")
			assert.Equal(t, w.create, in.Do(t, "POST", base+"/discussions", r.Token, url.Values{"body": {"hi"}}).Status, "thread")
			assert.Equal(t, w.reply, in.Do(t, "POST", base+"/discussions/"+root["id"].(string)+"/notes", r.Token, url.Values{"body": {"re"}}).Status, "reply")
			assert.Equal(t, w.changeOthers, in.Do(t, "PUT", base+"/notes/"+itoa(id(rootNote["id"])), r.Token, url.Values{"body": {"x"}}).Status, "update")
			del := w.changeOthers
			if del == 200 {
				del = 204
			}
			assert.Equal(t, del, in.Do(t, "DELETE", base+"/notes/"+itoa(id(rootNote["id"])), r.Token, nil).Status, "delete")
		})
	}
}

// TestNotePermissions_locked: a locked discussion takes notes from project members only; the
// lock and unlock are system notes.
func TestNotePermissions_locked(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "lock", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	outsider, outTok := in.NewUser(t, "outsider")
	guest, guestTok := in.NewUser(t, "guest")
	in.AddProjectMember(t, p, guest, 10)
	base := newIssue(t, in, p.ID, outTok, url.Values{"title": {"Flame war"}})
	mine := post(t, in, base+"/notes", outTok, 201, url.Values{"body": {"before the lock"}})
	_ = outsider

	require.Equal(t, 200, in.Do(t, "PUT", base, servertest.RootToken, url.Values{"discussion_locked": {"true"}}).Status)
	assert.Equal(t, 403, in.Do(t, "POST", base+"/notes", outTok, url.Values{"body": {"more"}}).Status)
	assert.Equal(t, 403, in.Do(t, "POST", base+"/discussions", outTok, url.Values{"body": {"more"}}).Status)
	assert.Equal(t, 403, in.Do(t, "PUT", base+"/notes/"+itoa(id(mine["id"])), outTok, url.Values{"body": {"edit"}}).Status)
	post(t, in, base+"/notes", guestTok, 201, url.Values{"body": {"members may"}})
	// The author of the issue still reads it.
	assert.Equal(t, 200, in.Do(t, "GET", base+"/notes", outTok, nil).Status)

	require.Equal(t, 200, in.Do(t, "PUT", base, servertest.RootToken, url.Values{"discussion_locked": {"false"}}).Status)
	post(t, in, base+"/notes", outTok, 201, url.Values{"body": {"after"}})
	assert.Equal(t, []string{"after", "unlocked the discussion in this issue", "members may",
		"locked the discussion in this issue", "before the lock"}, bodies(t, in.Do(t, "GET", base+"/notes", "", nil)))
}

// TestNotePermissions_confidentialIssue: a confidential issue's notes are as hidden as the
// issue: 404 for non-members and guests, readable by Reporter+, its author and assignees.
func TestNotePermissions_confidentialIssue(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "conf", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	author, authorTok := in.NewUser(t, "author")
	in.AddProjectMember(t, p, author, 10)
	base := newIssue(t, in, p.ID, authorTok, url.Values{"title": {"Secret"}, "confidential": {"true"}})
	n := post(t, in, base+"/notes", authorTok, 201, url.Values{"body": {"psst"}})
	d := servertest.List(t, in.Do(t, "GET", base+"/discussions", authorTok, nil))[0]

	for _, r := range servertest.Roles(t, in, "c", g) {
		t.Run(r.Name, func(t *testing.T) {
			want := 200
			if r.Level < 20 && r.Name != "admin" {
				want = 404
			}
			for _, path := range []string{"/notes", "/notes/" + itoa(id(n["id"])), "/discussions", "/discussions/" + d["id"].(string)} {
				got := in.Do(t, "GET", base+path, r.Token, nil)
				assert.Equal(t, want, got.Status, path)
				if want == 404 {
					servertest.RequireError(t, got, 404, "message", "404 Issue Not Found")
				}
			}
			if r.Token != "" && want == 404 {
				servertest.RequireError(t, in.Do(t, "POST", base+"/notes", r.Token, url.Values{"body": {"x"}}), 404, "message", "404 Issue Not Found")
			}
		})
	}
	assert.Equal(t, 200, in.Do(t, "GET", base+"/notes", authorTok, nil).Status)
	// The "commented on" event shows in the public project's feed only to those who read the
	// confidential issue.
	assert.Empty(t, servertest.List(t, in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/events?target_type=note", "", nil)))
	assert.Len(t, servertest.List(t, in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/events?target_type=note", authorTok, nil)), 1)
}

// TestNotePermissions_internalNotes: internal notes are written and read by Reporter+ only;
// others never see them in a list, a read or a discussion, and cannot mark theirs internal.
func TestNotePermissions_internalNotes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "int", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	rep, repTok := in.NewUser(t, "rep")
	in.AddProjectMember(t, p, rep, 20)
	guest, guestTok := in.NewUser(t, "guest")
	in.AddProjectMember(t, p, guest, 10)
	base := newIssue(t, in, p.ID, repTok, url.Values{"title": {"Bug"}})

	internal := post(t, in, base+"/notes", repTok, 201, url.Values{"body": {"hidden"}, "internal": {"true"}})
	assert.Equal(t, true, internal["internal"])
	assert.Equal(t, true, internal["confidential"])
	thread := post(t, in, base+"/discussions", repTok, 201, url.Values{"body": {"hidden thread"}, "internal": {"true"}})
	reply := post(t, in, base+"/discussions/"+thread["id"].(string)+"/notes", repTok, 201, url.Values{"body": {"hidden reply"}})
	assert.Equal(t, true, reply["internal"], "a reply to an internal thread is internal")
	public := post(t, in, base+"/notes", guestTok, 201, url.Values{"body": {"open"}, "internal": {"true"}})
	assert.Equal(t, false, public["internal"], "a guest cannot mark a note internal")

	assert.Equal(t, []string{"open"}, bodies(t, in.Do(t, "GET", base+"/notes", guestTok, nil)))
	assert.Equal(t, []string{"open"}, bodies(t, in.Do(t, "GET", base+"/notes", "", nil)))
	assert.Equal(t, []string{"open", "hidden reply", "hidden thread", "hidden"}, bodies(t, in.Do(t, "GET", base+"/notes", repTok, nil)))
	servertest.RequireError(t, in.Do(t, "GET", base+"/notes/"+itoa(id(internal["id"])), guestTok, nil), 404, "message", "404 Note Not Found")
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/discussions", guestTok, nil)), 1)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/discussions", repTok, nil)), 3)
	servertest.RequireError(t, in.Do(t, "GET", base+"/discussions/"+thread["id"].(string), guestTok, nil), 404, "message", "404 Discussion Not Found")
	servertest.RequireError(t, in.Do(t, "POST", base+"/discussions/"+thread["id"].(string)+"/notes", guestTok, url.Values{"body": {"x"}}),
		404, "message", "404 Discussion Not Found")
	// Internal notes' events show in the feed to Reporter+ only.
	evs := servertest.List(t, in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/events?target_type=note", guestTok, nil))
	require.Len(t, evs, 1)
	assert.Equal(t, "open", evs[0]["note"].(map[string]any)["body"])
	assert.Len(t, servertest.List(t, in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/events?target_type=note", repTok, nil)), 4)
	_ = guest
}
