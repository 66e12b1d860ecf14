package snippetapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// files lists the paths of a snippet JSON's files.
func files(m map[string]any) []string {
	out := []string{}
	for _, f := range m["files"].([]any) {
		out = append(out, f.(map[string]any)["path"].(string))
	}
	return out
}

// raw reads a snippet file at a ref.
func raw(t *testing.T, in *servertest.Instance, base, token, ref, path string) string {
	t.Helper()
	r := in.Do(t, "GET", base+"/files/"+servertest.Esc(ref)+"/"+servertest.Esc(path)+"/raw", token, nil)
	require.Equal(t, 200, r.Status, r.String())
	return string(r.Body)
}

// TestSnippetUpdateFiles: files[] actions change a snippet's files in one commit each; the
// older file_name and content change a single-file snippet; attributes alone make no commit.
func TestSnippetUpdateFiles(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "editor")
	sn := create(t, in, "/snippets", tok, `{"title":"multi","visibility":"private",
		"files":[{"file_path":"a.txt","content":"A"},{"file_path":"b.txt","content":"B"},{"file_path":"c.txt","content":"C"}]}`)
	base := "/snippets/" + idOf(sn)

	r := in.Do(t, "PUT", base, tok, `{"files":[
		{"action":"update","file_path":"a.txt","content":"A2"},
		{"action":"delete","file_path":"b.txt"},
		{"action":"move","previous_path":"c.txt","file_path":"dir/c2.txt"},
		{"action":"create","file_path":"d.txt","content":"D"},
		{"action":"create","content":"generated"}]}`)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, []string{"a.txt", "d.txt", "dir/c2.txt", "snippetfile4.txt"}, files(got))
	assert.Equal(t, "a.txt", got["file_name"])
	assert.Equal(t, "A2", raw(t, in, base, tok, "main", "a.txt"))
	assert.Equal(t, "C", raw(t, in, base, tok, "main", "dir/c2.txt"))
	assert.Equal(t, "generated", raw(t, in, base, tok, "main", "snippetfile4.txt"))
	// The first commit is still there: the repository keeps every version.
	assert.Equal(t, "B", raw(t, in, base, tok, "main~1", "b.txt"))
	assert.Equal(t, "A", raw(t, in, base, tok, "main~1", "a.txt"))

	// A move that also replaces the content.
	r = in.Do(t, "PUT", base, tok, `{"files":[{"action":"move","previous_path":"d.txt","file_path":"e.txt","content":"E"}]}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "E", raw(t, in, base, tok, "main", "e.txt"))

	// file_name and content are for single-file snippets only.
	r = in.Do(t, "PUT", base, tok, url.Values{"content": {"x"}})
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"error": "To update Snippets with multiple files, you must use the `files` parameter"}, servertest.Object(t, r)["message"])

	// Attributes alone: no commit (main~1 is still the previous version).
	r = in.Do(t, "PUT", base, tok, url.Values{"title": {"renamed"}, "description": {"now described"}, "visibility": {"public"}})
	require.Equal(t, 200, r.Status, r.String())
	got = servertest.Object(t, r)
	assert.Equal(t, "renamed", got["title"])
	assert.Equal(t, "now described", got["description"])
	assert.Equal(t, "public", got["visibility"])
	assert.Equal(t, "A2", raw(t, in, base, tok, "main~1", "a.txt"))
}

// TestSnippetUpdateLegacy: a single-file snippet's content and name through file_name and
// content.
func TestSnippetUpdateLegacy(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "editor")
	sn := create(t, in, "/snippets", tok, url.Values{"title": {"one"}, "file_name": {"one.rb"}, "content": {"1"}})
	base := "/snippets/" + idOf(sn)
	assert.Equal(t, "internal", sn["visibility"], "personal snippets are internal by default")

	r := in.Do(t, "PUT", base, tok, url.Values{"content": {"2"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []string{"one.rb"}, files(servertest.Object(t, r)))
	assert.Equal(t, "2", raw(t, in, base, tok, "main", "one.rb"))

	r = in.Do(t, "PUT", base, tok, url.Values{"file_name": {"two.rb"}})
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, "two.rb", got["file_name"])
	assert.Equal(t, []string{"two.rb"}, files(got))
	assert.Equal(t, "2", raw(t, in, base, tok, "main", "two.rb"))

	r = in.Do(t, "PUT", base, tok, url.Values{"file_name": {"three.rb"}, "content": {"3"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "3", raw(t, in, base, tok, "main", "three.rb"))
	r = in.Do(t, "GET", base+"/raw", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "3", string(r.Body))
}

// TestSnippetUpdateRefused: file actions git cannot apply, inconsistent actions, and a change
// that leaves no file are refused in GitLab's words, and change nothing.
func TestSnippetUpdateRefused(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "editor")
	sn := create(t, in, "/snippets", tok, `{"title":"t","files":[{"file_path":"a.txt","content":"A"},{"file_path":"b.txt","content":"B"}]}`)
	base := "/snippets/" + idOf(sn)
	cases := []struct {
		name, body string
		status     int
		message    string
	}{
		{"update a missing file", `{"files":[{"action":"update","file_path":"nope.txt","content":"x"}]}`, 400, "Repository Error updating the snippet"},
		{"create an existing file", `{"files":[{"action":"create","file_path":"a.txt","content":"x"}]}`, 400, "Repository Error updating the snippet"},
		{"delete a missing file", `{"files":[{"action":"delete","file_path":"nope.txt"}]}`, 400, "Repository Error updating the snippet"},
		{"delete every file", `{"files":[{"action":"delete","file_path":"a.txt"},{"action":"delete","file_path":"b.txt"}]}`, 400, "Repository Error updating the snippet"},
		{"update without content", `{"files":[{"action":"update","file_path":"a.txt"}]}`, 422, "Snippet files have invalid data"},
		{"update moving the file", `{"files":[{"action":"update","previous_path":"a.txt","file_path":"z.txt","content":"x"}]}`, 422, "Snippet files have invalid data"},
		{"move without previous path", `{"files":[{"action":"move","file_path":"z.txt"}]}`, 422, "Snippet files have invalid data"},
		{"delete without path", `{"files":[{"action":"delete"}]}`, 422, "Snippet files have invalid data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := in.Do(t, "PUT", base, tok, c.body)
			require.Equal(t, c.status, r.Status, r.String())
			assert.Equal(t, map[string]any{"message": map[string]any{"error": c.message}}, servertest.Object(t, r))
		})
	}
	r := in.Do(t, "GET", base, tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []string{"a.txt", "b.txt"}, files(servertest.Object(t, r)))
	assert.Equal(t, "A", raw(t, in, base, tok, "main", "a.txt"))

	// Title rules of the model.
	long := make([]byte, 256)
	for i := range long {
		long[i] = 'x'
	}
	r = in.Do(t, "PUT", base, tok, url.Values{"title": {string(long)}})
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"error": "Title is too long (maximum is 255 characters)"}}, servertest.Object(t, r))
	r = in.Do(t, "POST", "/snippets", tok, url.Values{"title": {string(long)}, "file_name": {"a"}, "content": {"b"}})
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"error": "Title is too long (maximum is 255 characters)"}}, servertest.Object(t, r))
	// A creation refused by git leaves no snippet behind.
	r = in.Do(t, "POST", "/snippets", tok, `{"title":"dup","files":[{"file_path":"a","content":"1"},{"file_path":"a","content":"2"}]}`)
	require.Equal(t, 400, r.Status, r.String())
	assert.Equal(t, map[string]any{"message": map[string]any{"error": "Repository Error creating the snippet"}}, servertest.Object(t, r))
	list := servertest.List(t, in.Do(t, "GET", "/snippets", tok, nil))
	assert.Len(t, list, 1)
}
