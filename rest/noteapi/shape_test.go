package noteapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoteShape: a note's JSON as GitLab's Entities::Note, and a discussion's.
func TestNoteShape(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "shape", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 20)
	base := newIssue(t, in, p.ID, tok, url.Values{"title": {"Crash"}})
	issueID := id(servertest.Object(t, in.Do(t, "GET", base, tok, nil))["id"])

	n := post(t, in, base+"/notes", tok, 201, url.Values{"body": {"Looks bad"}})
	author := n["author"].(map[string]any)
	assert.Equal(t, "alice", author["username"])
	assert.Equal(t, float64(alice.ID), author["id"])
	for k, want := range map[string]any{
		"type": nil, "body": "Looks bad", "attachment": nil, "system": false,
		"noteable_id": float64(issueID), "noteable_type": "Issue", "project_id": float64(p.ID),
		"resolvable": false, "confidential": false, "internal": false, "imported": false,
		"imported_from": "none", "noteable_iid": float64(1), "commands_changes": map[string]any{},
	} {
		assert.Equal(t, want, n[k], k)
	}
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, n["created_at"])
	assert.Equal(t, n["created_at"], n["updated_at"])
	assert.ElementsMatch(t, []string{"id", "type", "body", "attachment", "author", "created_at", "updated_at",
		"system", "noteable_id", "noteable_type", "project_id", "resolvable", "confidential", "internal",
		"imported", "imported_from", "noteable_iid", "commands_changes"}, servertest.Keys(n))

	// The read is the same note.
	r := in.Do(t, "GET", base+"/notes/"+itoa(id(n["id"])), "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, n, servertest.Object(t, r))

	// A discussion: its id (40 hex), individual_note, its notes.
	r = in.Do(t, "GET", base+"/discussions", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	ds := servertest.List(t, r)
	require.Len(t, ds, 1)
	assert.ElementsMatch(t, []string{"id", "individual_note", "notes"}, servertest.Keys(ds[0]))
	assert.Regexp(t, `^[0-9a-f]{40}$`, ds[0]["id"])
	assert.Equal(t, true, ds[0]["individual_note"])
	assert.Equal(t, []any{map[string]any(n)}, ds[0]["notes"])

	// The issue counts its user notes.
	assert.Equal(t, float64(1), servertest.Object(t, in.Do(t, "GET", base, "", nil))["user_notes_count"])
}
