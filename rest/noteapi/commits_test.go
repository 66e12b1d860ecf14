package noteapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitFixture is a project whose main branch has two commits: first writes a.txt
// ("one two three"), second changes it to "one 2 three four": line 2 removed (old 2) and added
// (new 2), line 4 added, lines 1 and 3 unchanged.
type commitFixture struct {
	f             *servertest.RepoFixture
	p             *ent.Project
	first, second string
}

// base is the commit's API path.
func (c *commitFixture) base(sha string) string {
	return "/projects/" + itoa(c.p.ID) + "/repository/commits/" + sha
}

func newCommitFixture(t *testing.T, visibility string) *commitFixture {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "app", visibility)
	c := &commitFixture{f: f, p: p}
	repo := f.Repo(t, p)
	commit := func(parent, content string) string {
		ctx := context.Background()
		action := git.ActionCreate
		if parent != "" {
			action = git.ActionUpdate
		}
		tree, err := repo.EditTree(ctx, parent, []git.TreeAction{{Action: action, Path: "a.txt", Content: []byte(content)}})
		require.NoError(t, err)
		opts := git.CommitTreeOptions{Tree: tree, Message: "a.txt\n", Author: servertest.Author, Committer: servertest.Author}
		opts.Author.When, opts.Committer.When = servertest.Epoch, servertest.Epoch
		if parent != "" {
			opts.Parents = []git.ObjectID{git.ObjectID(parent)}
		}
		id, err := repo.CommitTree(ctx, opts)
		require.NoError(t, err)
		return string(id)
	}
	c.first = commit("", "one\ntwo\nthree\n")
	c.second = commit(c.first, "one\n2\nthree\nfour\n")
	servertest.SetBranch(t, repo, "main", git.ObjectID(c.second))
	return c
}

// textPosition is a text position on the second commit's diff, as a JSON body's position.
func (c *commitFixture) textPosition(oldLine, newLine any) map[string]any {
	return map[string]any{
		"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "text",
		"old_path": "a.txt", "new_path": "a.txt", "old_line": oldLine, "new_line": newLine,
	}
}

func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestCommitDiscussions: threads on a commit (GitLab's discussions API for commits), diff notes
// with a position checked against the commit's diff, replies on the same line, and no notes API.
func TestCommitDiscussions(t *testing.T) {
	c := newCommitFixture(t, "public")
	f := c.f
	base := c.base(c.second)
	dev := f.Users["developer"]

	// A plain thread: noteable_type Commit, no noteable_id nor iid, not resolvable.
	r := f.Do(t, "POST", base+"/discussions", "developer", url.Values{"body": {"Why?"}})
	require.Equal(t, 201, r.Status, r.String())
	d := servertest.Object(t, r)
	assert.Equal(t, false, d["individual_note"])
	n := notesOf(d)[0]
	assert.ElementsMatch(t, []string{"id", "type", "body", "attachment", "author", "created_at", "updated_at",
		"system", "noteable_id", "noteable_type", "project_id", "resolvable", "confidential", "internal",
		"imported", "imported_from", "noteable_iid", "commands_changes"}, servertest.Keys(n))
	for k, want := range map[string]any{
		"type": "DiscussionNote", "body": "Why?", "attachment": nil, "system": false, "noteable_id": nil,
		"noteable_type": "Commit", "project_id": float64(c.p.ID), "resolvable": false, "confidential": false,
		"internal": false, "imported": false, "imported_from": "none", "noteable_iid": nil,
		"commands_changes": map[string]any{},
	} {
		assert.Equal(t, want, n[k], k)
	}
	assert.Equal(t, float64(dev.ID), n["author"].(map[string]any)["id"])

	// A diff note on the added line 2: its position as GitLab shows it.
	r = f.Do(t, "POST", base+"/discussions", "developer", jsonBody(t, map[string]any{"body": "Rename", "position": c.textPosition(nil, 2)}))
	require.Equal(t, 201, r.Status, r.String())
	diff := servertest.Object(t, r)
	dn := notesOf(diff)[0]
	assert.Equal(t, "DiffNote", dn["type"])
	assert.Equal(t, false, dn["resolvable"])
	assert.NotContains(t, dn, "commit_id", "commit_id is shown on merge request diff notes only")
	assert.Equal(t, map[string]any{
		"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "old_path": "a.txt", "new_path": "a.txt",
		"position_type": "text", "old_line": nil, "new_line": float64(2), "line_range": nil,
	}, dn["position"])

	// Removed, unchanged and added lines all take notes; the form encoding works too.
	for _, lines := range [][2]any{{2, nil}, {3, 3}, {nil, 4}, {1, 1}} {
		r = f.Do(t, "POST", base+"/discussions", "developer", jsonBody(t, map[string]any{"body": "x", "position": c.textPosition(lines[0], lines[1])}))
		require.Equal(t, 201, r.Status, "%v: %s", lines, r.String())
	}
	form := url.Values{"body": {"form"}, "position[base_sha]": {c.first}, "position[start_sha]": {c.first},
		"position[head_sha]": {c.second}, "position[position_type]": {"text"}, "position[new_path]": {"a.txt"},
		"position[old_path]": {"a.txt"}, "position[new_line]": {"4"}}
	r = f.Do(t, "POST", base+"/discussions", "developer", form)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, float64(4), notesOf(servertest.Object(t, r))[0]["position"].(map[string]any)["new_line"])

	// Image and file positions need a path only.
	img := map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "image",
		"new_path": "a.txt", "width": 10, "height": 20, "x": 1, "y": 2}
	r = f.Do(t, "POST", base+"/discussions", "developer", jsonBody(t, map[string]any{"body": "img", "position": img}))
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "old_path": nil,
		"new_path": "a.txt", "position_type": "image", "width": float64(10), "height": float64(20), "x": float64(1), "y": float64(2)},
		notesOf(servertest.Object(t, r))[0]["position"])

	// Invalid positions: GitLab's 400s.
	lineCode := "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}"
	for _, bad := range []struct {
		pos       map[string]any
		key, want string
	}{
		{c.textPosition(nil, 9), "message", lineCode},
		{c.textPosition(2, 2), "message", lineCode}, // line 2 is not unchanged
		{c.textPosition(nil, nil), "message", "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"], :position=>[\"is incomplete\"]}"},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "text", "new_path": "nope.txt", "new_line": 1}, "message", lineCode},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": "0000000000000000000000000000000000000000", "position_type": "text", "new_path": "a.txt", "new_line": 2}, "message", lineCode},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "file"}, "message", "400 Bad request - Note {:position=>[\"is incomplete\"]}"},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "position_type": "text"}, "error", "position[head_sha] is missing"},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "line"}, "error", "position[position_type] does not have a valid value"},
		{map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "position_type": "text", "new_line": "two"}, "error", "position[new_line] is invalid"},
	} {
		r = f.Do(t, "POST", base+"/discussions", "developer", jsonBody(t, map[string]any{"body": "bad", "position": bad.pos}))
		servertest.RequireError(t, r, 400, bad.key, bad.want)
	}
	servertest.RequireError(t, f.Do(t, "POST", base+"/discussions", "developer", `{"body":"x","position":"text"}`), 400, "error", "position is invalid")

	// A reply to a diff thread is a diff note on the same line.
	r = f.Do(t, "POST", base+"/discussions/"+diff["id"].(string)+"/notes", "reporter", url.Values{"body": {"Agreed"}})
	require.Equal(t, 201, r.Status, r.String())
	reply := servertest.Object(t, r)
	assert.Equal(t, "DiffNote", reply["type"])
	assert.Equal(t, dn["position"], reply["position"])
	r = f.Do(t, "GET", base+"/discussions/"+diff["id"].(string), "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []any{dn, map[string]any(reply)}, servertest.Object(t, r)["notes"])
	r = f.Do(t, "GET", base+"/discussions/"+diff["id"].(string)+"/notes", "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []map[string]any{dn, reply}, servertest.List(t, r))
	servertest.RequireError(t, f.Do(t, "GET", base+"/discussions/"+"f00/notes", "guest", nil), 404, "message", "404 Notes Not Found")
	r = f.Do(t, "GET", base+"/discussions/"+diff["id"].(string)+"/notes/"+itoa(id(reply["id"])), "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, reply, servertest.Object(t, r))

	// The commit is found by branch name too; its notes are the commit's (by full id).
	r = f.Do(t, "GET", c.base("main")+"/discussions?per_page=100", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 8)
	assert.Empty(t, servertest.List(t, f.Do(t, "GET", c.base(c.first)+"/discussions", "", nil)))

	// Edit and delete; commit threads are not resolvable.
	path := base + "/discussions/" + d["id"].(string) + "/notes/" + itoa(id(n["id"]))
	r = f.Do(t, "PUT", path, "developer", url.Values{"body": {"Why, really?"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "Why, really?", servertest.Object(t, r)["body"])
	servertest.RequireError(t, f.Do(t, "PUT", path, "developer", url.Values{"resolved": {"true"}}), 400, "message", "400 Bad request - Note is not resolvable")
	assert.Equal(t, 404, f.Do(t, "PUT", base+"/discussions/"+d["id"].(string), "developer", url.Values{"resolved": {"true"}}).Status)
	assert.Equal(t, 403, f.Do(t, "DELETE", path, "reporter", nil).Status)
	assert.Equal(t, 204, f.Do(t, "DELETE", path, "developer", nil).Status)

	// Commits have no notes API (GitLab's notes API serves issues, merge requests and snippets).
	assert.Equal(t, 404, f.Do(t, "GET", base+"/notes", "developer", nil).Status)

	// A comment records a "commented on" event whose note is on the commit.
	r = f.Do(t, "GET", "/projects/"+itoa(c.p.ID)+"/events?target_type=note&per_page=100", "developer", nil)
	require.Equal(t, 200, r.Status, r.String())
	evs := servertest.List(t, r)
	require.NotEmpty(t, evs)
	withNote := 0
	for _, e := range evs {
		assert.Equal(t, "commented on", e["action_name"])
		assert.Equal(t, "Note", e["target_type"])
		if n, ok := e["note"].(map[string]any); ok { // the deleted note's event has none
			assert.Equal(t, "Commit", n["noteable_type"])
			withNote++
		}
	}
	assert.Equal(t, 8, withNote)
}

// TestCommitComments: GitLab's older commit comments API (CommitNote shape): a comment on a
// line of the commit's diff, or on the commit.
func TestCommitComments(t *testing.T) {
	c := newCommitFixture(t, "public")
	f := c.f
	base := c.base(c.second) + "/comments"

	r := f.Do(t, "POST", base, "developer", url.Values{"note": {"Nice"}, "path": {"a.txt"}, "line": {"2"}, "line_type": {"new"}})
	require.Equal(t, 201, r.Status, r.String())
	onLine := servertest.Object(t, r)
	assert.ElementsMatch(t, []string{"note", "path", "line", "line_type", "author", "created_at"}, servertest.Keys(onLine))
	assert.Equal(t, "Nice", onLine["note"])
	assert.Equal(t, "a.txt", onLine["path"])
	assert.Equal(t, float64(2), onLine["line"])
	assert.Equal(t, "new", onLine["line_type"])
	assert.Equal(t, "developer", onLine["author"].(map[string]any)["username"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, onLine["created_at"])

	// line_type defaults to new; an old line is numbered on the old side.
	r = f.Do(t, "POST", base, "developer", url.Values{"note": {"Gone"}, "path": {"a.txt"}, "line": {"2"}, "line_type": {"old"}})
	require.Equal(t, 201, r.Status, r.String())
	old := servertest.Object(t, r)
	assert.Equal(t, "old", old["line_type"])
	assert.Equal(t, float64(2), old["line"])
	r = f.Do(t, "POST", base, "developer", url.Values{"note": {"Four"}, "path": {"a.txt"}, "line": {"4"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, "new", servertest.Object(t, r)["line_type"])

	// A comment on the commit, or on a line its diff does not have: no path.
	for _, form := range []url.Values{{"note": {"General"}}, {"note": {"Nowhere"}, "path": {"a.txt"}, "line": {"3"}}} {
		r = f.Do(t, "POST", base, "developer", form)
		require.Equal(t, 201, r.Status, r.String())
		got := servertest.Object(t, r)
		assert.Nil(t, got["path"])
		assert.Nil(t, got["line"])
		assert.Nil(t, got["line_type"])
	}

	// The list, oldest first; the line comments are diff threads in the discussions API.
	r = f.Do(t, "GET", base, "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "5", r.Header.Get("X-Total"))
	list := servertest.List(t, r)
	require.Len(t, list, 5)
	assert.Equal(t, onLine, list[0])
	var notes []string
	for _, n := range list {
		notes = append(notes, n["note"].(string))
	}
	assert.Equal(t, []string{"Nice", "Gone", "Four", "General", "Nowhere"}, notes)
	ds := servertest.List(t, f.Do(t, "GET", c.base(c.second)+"/discussions", "", nil))
	require.Len(t, ds, 5)
	first := notesOf(ds[0])[0]
	assert.Equal(t, "DiffNote", first["type"])
	assert.Equal(t, map[string]any{"base_sha": c.first, "start_sha": c.first, "head_sha": c.second, "old_path": "a.txt",
		"new_path": "a.txt", "position_type": "text", "old_line": nil, "new_line": float64(2), "line_range": nil}, first["position"])
	assert.Equal(t, true, ds[3]["individual_note"])

	// Errors.
	servertest.RequireError(t, f.Do(t, "POST", base, "developer", url.Values{}), 400, "error", "note is missing")
	servertest.RequireError(t, f.Do(t, "POST", base, "developer", url.Values{"note": {"x"}, "path": {"a.txt"}}), 400, "error", "line is missing")
	servertest.RequireError(t, f.Do(t, "POST", base, "developer", url.Values{"note": {"x"}, "path": {"a.txt"}, "line": {"1"}, "line_type": {"both"}}),
		400, "error", "line_type does not have a valid value")
	servertest.RequireError(t, f.Do(t, "POST", base, "developer", url.Values{"note": {" "}}), 400, "message",
		"400 Bad request - Failed to save note {:note=>[\"can't be blank\"]}")
	servertest.RequireError(t, f.Do(t, "POST", base, "", url.Values{"note": {"x"}}), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "GET", c.base("0123456789abcdef0123456789abcdef01234567")+"/comments", "", nil), 404, "message", "404 Commit Not Found")
	servertest.RequireError(t, f.Do(t, "GET", c.base("nope")+"/comments", "", nil), 404, "message", "404 Commit Not Found")
}

// TestCommitNotes_permissions: a private project is 404 Project Not Found to outsiders; its
// commits are 404 Commit Not Found to a guest, who may not read its code; reporters read and
// comment.
func TestCommitNotes_permissions(t *testing.T) {
	c := newCommitFixture(t, "private")
	f := c.f
	base := c.base(c.second)
	for _, path := range []string{base + "/discussions", base + "/comments"} {
		servertest.RequireError(t, f.Do(t, "GET", path, "outsider", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.Do(t, "GET", path, "", nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.Do(t, "GET", path, "guest", nil), 404, "message", "404 Commit Not Found")
		servertest.RequireError(t, f.Do(t, "POST", path, "guest", url.Values{"body": {"x"}, "note": {"x"}}), 404, "message", "404 Commit Not Found")
		assert.Equal(t, 200, f.Do(t, "GET", path, "reporter", nil).Status)
		assert.Equal(t, 201, f.Do(t, "POST", path, "reporter", url.Values{"body": {"x"}, "note": {"x"}}).Status)
	}
	// The guest sees no event of those comments either.
	r := f.Do(t, "GET", "/projects/"+itoa(c.p.ID)+"/events?target_type=note", "guest", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, servertest.List(t, r))
	assert.Len(t, servertest.List(t, f.Do(t, "GET", "/projects/"+itoa(c.p.ID)+"/events?target_type=note", "reporter", nil)), 2)
}
