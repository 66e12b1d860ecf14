package snippetapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/note"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnippetNotes: a project snippet is a noteable: notes and discussions on it, seen by
// whoever reads the snippet, and removed with it.
func TestSnippetNotes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "grp", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	member, mtok := in.NewUser(t, "member")
	in.AddProjectMember(t, p, member, 20)
	_, otok := in.NewUser(t, "outsider")
	base := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	priv := create(t, in, base, mtok, url.Values{"title": {"private"}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}})
	pub := create(t, in, base, mtok, url.Values{"title": {"public"}, "visibility": {"public"}, "file_name": {"f"}, "content": {"c"}})
	privNotes := base + "/" + idOf(priv) + "/notes"
	pubNotes := base + "/" + idOf(pub) + "/notes"

	r := in.Do(t, "POST", privNotes, mtok, url.Values{"body": {"first"}})
	require.Equal(t, 201, r.Status, r.String())
	n := servertest.Object(t, r)
	assert.Equal(t, "Snippet", n["noteable_type"])
	assert.Equal(t, priv["id"], n["noteable_id"])
	assert.Nil(t, n["noteable_iid"])
	assert.Equal(t, float64(p.ID), n["project_id"])

	// Who does not read the snippet does not find its notes.
	assert.Equal(t, 404, in.Do(t, "GET", privNotes, otok, nil).Status)
	assert.Equal(t, 404, in.Do(t, "POST", privNotes, otok, url.Values{"body": {"x"}}).Status)
	assert.Equal(t, 404, in.Do(t, "GET", privNotes, "", nil).Status)
	// A public snippet of a public project: everyone reads, signed-in users comment.
	r = in.Do(t, "POST", pubNotes, otok, url.Values{"body": {"from outside"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Len(t, servertest.List(t, in.Do(t, "GET", pubNotes, "", nil)), 1)

	// Discussions: a thread and a reply.
	r = in.Do(t, "POST", base+"/"+idOf(pub)+"/discussions", mtok, url.Values{"body": {"thread"}})
	require.Equal(t, 201, r.Status, r.String())
	d := servertest.Object(t, r)
	r = in.Do(t, "POST", base+"/"+idOf(pub)+"/discussions/"+d["id"].(string)+"/notes", otok, url.Values{"body": {"reply"}})
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "GET", base+"/"+idOf(pub)+"/discussions", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 2)

	// With the snippets feature off, its notes are refused as the snippets are.
	r = in.Do(t, "PUT", "/projects/"+strconv.Itoa(p.ID), servertest.RootToken, url.Values{"snippets_access_level": {"disabled"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, 403, in.Do(t, "GET", pubNotes, mtok, nil).Status)
	r = in.Do(t, "PUT", "/projects/"+strconv.Itoa(p.ID), servertest.RootToken, url.Values{"snippets_access_level": {"enabled"}})
	require.Equal(t, 200, r.Status, r.String())

	// Deleting a snippet deletes its notes.
	require.Equal(t, 204, in.Do(t, "DELETE", base+"/"+idOf(pub), mtok, nil).Status)
	left, err := in.DB.Client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeSnippet)).Count(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, left, "only the private snippet's note is left")
}
