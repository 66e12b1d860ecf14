package noteapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscussionNoteEdit_exactlyOneOf: a thread note's PUT takes body or resolved, exactly one
// (GitLab's exactly_one_of). python-gitlab's note.save() sends body with resolved: that is a 400,
// not an edit that silently drops resolved. Each alone still works, on issues too.
func TestDiscussionNoteEdit_exactlyOneOf(t *testing.T) {
	m := newMRFixture(t, "public")
	f := m.f
	r := f.Do(t, "POST", m.mr+"/discussions", "developer", url.Values{"body": {"Thread"}})
	require.Equal(t, 201, r.Status, r.String())
	d := servertest.Object(t, r)
	n := notesOf(d)[0]
	path := m.mr + "/discussions/" + d["id"].(string) + "/notes/" + itoa(id(n["id"]))

	servertest.RequireError(t, f.Do(t, "PUT", path, "developer", `{"body":"Thread","resolved":true}`),
		400, "error", "body, resolved are mutually exclusive")
	servertest.RequireError(t, f.Do(t, "PUT", path, "developer", url.Values{"body": {"x"}, "resolved": {"false"}}),
		400, "error", "body, resolved are mutually exclusive")
	servertest.RequireError(t, f.Do(t, "PUT", path, "developer", nil),
		400, "error", "body, resolved are missing, exactly one parameter must be provided")
	r = f.Do(t, "GET", m.mr+"/discussions/"+d["id"].(string), "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	kept := notesOf(servertest.Object(t, r))[0]
	assert.Equal(t, "Thread", kept["body"])
	assert.Equal(t, false, kept["resolved"])

	r = f.Do(t, "PUT", path, "developer", `{"resolved":true}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["resolved"])
	r = f.Do(t, "PUT", path, "developer", `{"body":"Edited"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "Edited", servertest.Object(t, r)["body"])

	// The plain notes route keeps its own parameters: body alone edits.
	r = f.Do(t, "PUT", m.mr+"/notes/"+itoa(id(n["id"])), "developer", `{"body":"Again"}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "Again", servertest.Object(t, r)["body"])
}
