package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpicNotes: the notes and discussions of epics (addressed by the epic's id, as GitLab's
// notes API does), with EpicPolicy's rules: readers read, signed-in readers comment,
// confidential epics' notes only for Planners and up, internal notes for Planners and up; an
// epic's notes go with it.
func TestEpicNotes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "talk", "public", nil)
	gid := strconv.Itoa(g.ID)
	_, outsider := in.NewUser(t, "outsider")
	guest, gtok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	reporter, rtok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)
	e := newEpic(t, in, g.ID, rtok, url.Values{"title": {"Plan"}})
	base := "/groups/" + gid + "/epics/" + strconv.Itoa(num(e["id"]))

	r := in.Do(t, "POST", base+"/notes", outsider, url.Values{"body": {"Nice plan"}})
	require.Equal(t, 201, r.Status, r.String())
	n := servertest.Object(t, r)
	assert.Equal(t, "Epic", n["noteable_type"])
	assert.Equal(t, num(e["id"]), num(n["noteable_id"]))
	assert.Equal(t, 1, num(n["noteable_iid"]))
	assert.Nil(t, n["project_id"])
	assert.Equal(t, "outsider", n["author"].(map[string]any)["username"])

	r = in.Do(t, "POST", base+"/discussions", gtok, url.Values{"body": {"Thread"}})
	require.Equal(t, 201, r.Status, r.String())
	d := servertest.Object(t, r)
	r = in.Do(t, "POST", base+"/discussions/"+d["id"].(string)+"/notes", rtok, url.Values{"body": {"Reply"}})
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "POST", base+"/notes", rtok, url.Values{"body": {"Internal"}, "internal": {"true"}})
	require.Equal(t, 201, r.Status, r.String())

	ds := servertest.List(t, in.Do(t, "GET", base+"/discussions", "", nil))
	assert.Len(t, ds, 2, "anonymous readers see the public notes of a public group's epic")
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/notes", gtok, nil)), 3)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", base+"/notes", rtok, nil)), 4)
	assert.Equal(t, 401, in.Do(t, "POST", base+"/notes", "", url.Values{"body": {"x"}}).Status)
	// The epic iid is not its id: the notes API wants the id.
	other := newEpic(t, in, g.ID, rtok, url.Values{"title": {"Other"}})
	assert.Equal(t, 404, in.Do(t, "GET", "/groups/"+gid+"/epics/999999/notes", rtok, nil).Status)
	assert.Len(t, servertest.List(t, in.Do(t, "GET", "/groups/"+gid+"/epics/"+strconv.Itoa(num(other["id"]))+"/notes", rtok, nil)), 0)

	// A confidential epic's notes: Planners and up only.
	secret := newEpic(t, in, g.ID, rtok, url.Values{"title": {"Secret"}, "confidential": {"true"}})
	sbase := "/groups/" + gid + "/epics/" + strconv.Itoa(num(secret["id"]))
	assert.Equal(t, 201, in.Do(t, "POST", sbase+"/notes", rtok, url.Values{"body": {"hush"}}).Status)
	assert.Equal(t, 404, in.Do(t, "GET", sbase+"/notes", gtok, nil).Status)
	assert.Equal(t, 404, in.Do(t, "POST", sbase+"/notes", gtok, url.Values{"body": {"x"}}).Status)

	// A private group's epics: members only.
	priv := in.NewGroup(t, "quiet", "private", nil)
	in.AddGroupMember(t, priv, reporter, 20)
	pe := newEpic(t, in, priv.ID, rtok, url.Values{"title": {"Quiet"}})
	pbase := "/groups/" + strconv.Itoa(priv.ID) + "/epics/" + strconv.Itoa(num(pe["id"]))
	assert.Equal(t, 404, in.Do(t, "GET", pbase+"/notes", outsider, nil).Status)
	assert.Equal(t, 200, in.Do(t, "GET", pbase+"/notes", rtok, nil).Status)

	// Deleting an epic (and its child) removes their notes.
	child := newEpic(t, in, g.ID, rtok, url.Values{"title": {"Child"}, "parent_id": {strconv.Itoa(num(e["id"]))}})
	cbase := "/groups/" + gid + "/epics/" + strconv.Itoa(num(child["id"]))
	assert.Equal(t, 201, in.Do(t, "POST", cbase+"/notes", rtok, url.Values{"body": {"kid"}}).Status)
	before, err := in.DB.Client.Note.Query().Count(t.Context())
	require.NoError(t, err)
	require.Equal(t, 204, in.Do(t, "DELETE", "/groups/"+gid+"/epics/1", servertest.RootToken, nil).Status)
	after, err := in.DB.Client.Note.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, before-5, after)
	assert.Equal(t, 404, in.Do(t, "GET", cbase+"/notes", rtok, nil).Status)
}
