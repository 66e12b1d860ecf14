package noteapi_test

import (
	"context"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mrFixture is a project with a merge request !1 from feature (a.txt changed: "one two three"
// on main, "one 2 three four" on feature) into main, opened by the developer.
type mrFixture struct {
	f          *servertest.RepoFixture
	p          *ent.Project
	base, head string // main's and feature's commits
	mr         string // the merge request's API path
}

func newMRFixture(t *testing.T, visibility string) *mrFixture {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "app", visibility)
	repo := f.Repo(t, p)
	commit := func(parent, content string, minute int) string {
		ctx := context.Background()
		action := git.ActionCreate
		if parent != "" {
			action = git.ActionUpdate
		}
		tree, err := repo.EditTree(ctx, parent, []git.TreeAction{{Action: action, Path: "a.txt", Content: []byte(content)}})
		require.NoError(t, err)
		sig := servertest.Author
		sig.When = servertest.Epoch.Add(0)
		opts := git.CommitTreeOptions{Tree: tree, Message: "a.txt\n", Author: sig, Committer: sig}
		if parent != "" {
			opts.Parents = []git.ObjectID{git.ObjectID(parent)}
		}
		id, err := repo.CommitTree(ctx, opts)
		require.NoError(t, err)
		return string(id)
	}
	m := &mrFixture{f: f, p: p}
	m.base = commit("", "one\ntwo\nthree\n", 0)
	m.head = commit(m.base, "one\n2\nthree\nfour\n", 1)
	servertest.SetBranch(t, repo, "main", git.ObjectID(m.base))
	servertest.SetBranch(t, repo, "feature", git.ObjectID(m.head))
	r := f.Do(t, "POST", "/projects/"+itoa(p.ID)+"/merge_requests", "developer",
		url.Values{"source_branch": {"feature"}, "target_branch": {"main"}, "title": {"Change a"}})
	require.Equal(t, 201, r.Status, r.String())
	m.mr = "/projects/" + itoa(p.ID) + "/merge_requests/1"
	return m
}

// position is a text position on the merge request's diff.
func (m *mrFixture) position(oldLine, newLine any) map[string]any {
	return map[string]any{
		"base_sha": m.base, "start_sha": m.base, "head_sha": m.head, "position_type": "text",
		"old_path": "a.txt", "new_path": "a.txt", "old_line": oldLine, "new_line": newLine,
	}
}

// TestMergeRequestNotes: the notes API on a merge request: create, list with sort and
// order_by, read, change, delete; individual notes are not resolvable; user_notes_count.
func TestMergeRequestNotes(t *testing.T) {
	m := newMRFixture(t, "public")
	f := m.f
	r := f.Do(t, "POST", m.mr+"/notes", "reporter", url.Values{"body": {"First"}})
	require.Equal(t, 201, r.Status, r.String())
	n := servertest.Object(t, r)
	mrJSON := servertest.Object(t, f.Do(t, "GET", m.mr, "", nil))
	assert.ElementsMatch(t, []string{"id", "type", "body", "attachment", "author", "created_at", "updated_at",
		"system", "noteable_id", "noteable_type", "project_id", "resolvable", "confidential", "internal",
		"imported", "imported_from", "noteable_iid", "commands_changes"}, servertest.Keys(n))
	for k, want := range map[string]any{
		"type": nil, "body": "First", "noteable_id": mrJSON["id"], "noteable_type": "MergeRequest",
		"noteable_iid": float64(1), "project_id": float64(m.p.ID), "resolvable": false, "system": false,
	} {
		assert.Equal(t, want, n[k], k)
	}
	assert.Equal(t, float64(1), mrJSON["user_notes_count"])

	r = f.Do(t, "POST", m.mr+"/notes", "developer", url.Values{"body": {"Second"}})
	require.Equal(t, 201, r.Status, r.String())
	second := servertest.Object(t, r)
	assert.Equal(t, []string{"Second", "First"}, bodies(t, f.Do(t, "GET", m.mr+"/notes", "", nil)))
	assert.Equal(t, []string{"First", "Second"}, bodies(t, f.Do(t, "GET", m.mr+"/notes?sort=asc&order_by=created_at", "", nil)))
	r = f.Do(t, "PUT", m.mr+"/notes/"+itoa(id(n["id"])), "reporter", url.Values{"body": {"First, edited"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []string{"First, edited", "Second"}, bodies(t, f.Do(t, "GET", m.mr+"/notes?order_by=updated_at", "", nil)))
	r = f.Do(t, "GET", m.mr+"/notes/"+itoa(id(second["id"])), "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, second, servertest.Object(t, r))
	assert.Equal(t, 403, f.Do(t, "DELETE", m.mr+"/notes/"+itoa(id(second["id"])), "reporter", nil).Status)
	assert.Equal(t, 204, f.Do(t, "DELETE", m.mr+"/notes/"+itoa(id(second["id"])), "maintainer", nil).Status)
	assert.Equal(t, float64(1), servertest.Object(t, f.Do(t, "GET", m.mr, "", nil))["user_notes_count"])

	// An individual note resolves nothing.
	servertest.RequireError(t, f.Do(t, "PUT", m.mr+"/discussions/x/notes/"+itoa(id(n["id"])), "developer", url.Values{"resolved": {"true"}}),
		400, "message", "400 Bad request - Note is not resolvable")

	// Not found and permissions.
	servertest.RequireError(t, f.Do(t, "GET", "/projects/"+itoa(m.p.ID)+"/merge_requests/9/notes", "", nil), 404, "message", "404 Merge Request Not Found")
	servertest.RequireError(t, f.Do(t, "POST", m.mr+"/notes", "", url.Values{"body": {"x"}}), 401, "message", "401 Unauthorized")
}

// TestMergeRequestDiscussions: threads on a merge request are resolvable: resolving and
// unresolving one note or a whole thread, by whom; diff threads with a position checked against
// the diff, commit_id kept; replies; blocking threads counted.
func TestMergeRequestDiscussions(t *testing.T) {
	m := newMRFixture(t, "public")
	f := m.f
	dev := f.Users["developer"]

	r := f.Do(t, "POST", m.mr+"/discussions", "reporter", url.Values{"body": {"Question"}})
	require.Equal(t, 201, r.Status, r.String())
	d := servertest.Object(t, r)
	n := notesOf(d)[0]
	assert.ElementsMatch(t, []string{"id", "type", "body", "attachment", "author", "created_at", "updated_at",
		"system", "noteable_id", "noteable_type", "project_id", "resolvable", "resolved", "resolved_by", "resolved_at",
		"confidential", "internal", "imported", "imported_from", "noteable_iid", "commands_changes"}, servertest.Keys(n))
	for k, want := range map[string]any{
		"type": "DiscussionNote", "resolvable": true, "resolved": false, "resolved_by": nil, "resolved_at": nil,
		"noteable_type": "MergeRequest", "noteable_iid": float64(1),
	} {
		assert.Equal(t, want, n[k], k)
	}
	did := d["id"].(string)

	// A diff thread: position and commit_id (merge request diff notes show it).
	pos := m.position(nil, 4)
	pos["line_range"] = map[string]any{"start": map[string]any{"line_code": "abc_3_3", "type": nil, "old_line": "3", "new_line": "3"},
		"end": map[string]any{"line_code": "abc_4_4", "type": "new", "new_line": 4}}
	r = f.Do(t, "POST", m.mr+"/discussions", "developer", jsonBody(t, map[string]any{"body": "Nit", "position": pos, "commit_id": m.head}))
	require.Equal(t, 201, r.Status, r.String())
	diff := servertest.Object(t, r)
	dn := notesOf(diff)[0]
	assert.Equal(t, "DiffNote", dn["type"])
	assert.Equal(t, true, dn["resolvable"])
	assert.Equal(t, m.head, dn["commit_id"])
	assert.Equal(t, map[string]any{
		"base_sha": m.base, "start_sha": m.base, "head_sha": m.head, "old_path": "a.txt", "new_path": "a.txt",
		"position_type": "text", "old_line": nil, "new_line": float64(4),
		"line_range": map[string]any{
			"start": map[string]any{"line_code": "abc_3_3", "type": nil, "old_line": float64(3), "new_line": float64(3)},
			"end":   map[string]any{"line_code": "abc_4_4", "type": "new", "old_line": nil, "new_line": float64(4)},
		},
	}, dn["position"])
	// Without commit_id it is null.
	r = f.Do(t, "POST", m.mr+"/discussions", "developer", jsonBody(t, map[string]any{"body": "Nit 2", "position": m.position(2, nil)}))
	require.Equal(t, 201, r.Status, r.String())
	assert.Nil(t, notesOf(servertest.Object(t, r))[0]["commit_id"])
	assert.Contains(t, notesOf(servertest.Object(t, r))[0], "commit_id")
	servertest.RequireError(t, f.Do(t, "POST", m.mr+"/discussions", "developer", jsonBody(t, map[string]any{"body": "x", "position": m.position(nil, 7)})),
		400, "message", "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}")
	servertest.RequireError(t, f.Do(t, "POST", m.mr+"/discussions", "developer", jsonBody(t, map[string]any{"body": "x", "position": map[string]any{"position_type": "text"}})),
		400, "error", "position[base_sha] is missing, position[start_sha] is missing, position[head_sha] is missing")

	// The reply to a diff thread is a resolvable diff note on the same line.
	r = f.Do(t, "POST", m.mr+"/discussions/"+diff["id"].(string)+"/notes", "reporter", url.Values{"body": {"Done"}})
	require.Equal(t, 201, r.Status, r.String())
	reply := servertest.Object(t, r)
	assert.Equal(t, "DiffNote", reply["type"])
	assert.Equal(t, true, reply["resolvable"])
	assert.Equal(t, dn["position"], reply["position"])
	assert.Equal(t, m.head, reply["commit_id"])

	// Resolving a thread: not its author who cannot update the merge request (the guest), nor
	// anonymously; a developer may.
	path := m.mr + "/discussions/" + did
	servertest.RequireError(t, f.Do(t, "PUT", path, "guest", url.Values{"resolved": {"true"}}), 403, "message", "403 Forbidden")
	servertest.RequireError(t, f.Do(t, "PUT", path, "", url.Values{"resolved": {"true"}}), 401, "message", "401 Unauthorized")
	servertest.RequireError(t, f.Do(t, "PUT", path, "developer", nil), 400, "error", "resolved is missing")
	r = f.Do(t, "PUT", path, "developer", url.Values{"resolved": {"true"}})
	require.Equal(t, 200, r.Status, r.String())
	got := notesOf(servertest.Object(t, r))[0]
	assert.Equal(t, true, got["resolved"])
	assert.Equal(t, float64(dev.ID), got["resolved_by"].(map[string]any)["id"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, got["resolved_at"])
	// Resolving again keeps the first resolution.
	r = f.Do(t, "PUT", path, "maintainer", url.Values{"resolved": {"true"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, got["resolved_at"], notesOf(servertest.Object(t, r))[0]["resolved_at"])
	assert.Equal(t, float64(dev.ID), notesOf(servertest.Object(t, r))[0]["resolved_by"].(map[string]any)["id"])
	// The thread's author unresolves it (resolve_note is the author's too).
	r = f.Do(t, "PUT", path, "reporter", url.Values{"resolved": {"false"}})
	require.Equal(t, 200, r.Status, r.String())
	got = notesOf(servertest.Object(t, r))[0]
	assert.Equal(t, false, got["resolved"])
	assert.Nil(t, got["resolved_by"])
	assert.Nil(t, got["resolved_at"])

	// One note of the diff thread.
	notePath := m.mr + "/discussions/" + diff["id"].(string) + "/notes/" + itoa(id(reply["id"]))
	r = f.Do(t, "PUT", notePath, "developer", url.Values{"resolved": {"true"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["resolved"])
	ds := servertest.List(t, f.Do(t, "GET", m.mr+"/discussions", "", nil))
	require.Len(t, ds, 3)
	assert.Equal(t, []any{false, true}, []any{notesOf(ds[1])[0]["resolved"], notesOf(ds[1])[1]["resolved"]})

	// Individual notes' discussions cannot be resolved.
	r = f.Do(t, "POST", m.mr+"/notes", "developer", url.Values{"body": {"Alone"}})
	require.Equal(t, 201, r.Status, r.String())
	var single string
	for _, d := range servertest.List(t, f.Do(t, "GET", m.mr+"/discussions", "", nil)) {
		if d["individual_note"] == true {
			single = d["id"].(string)
		}
	}
	require.NotEmpty(t, single)
	servertest.RequireError(t, f.Do(t, "PUT", m.mr+"/discussions/"+single, "developer", url.Values{"resolved": {"true"}}), 403, "message", "403 Forbidden")

	// Replying to an individual note makes it a resolvable thread.
	r = f.Do(t, "POST", m.mr+"/discussions/"+single+"/notes", "reporter", url.Values{"body": {"Reply"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["resolvable"])
	got = servertest.Object(t, f.Do(t, "GET", m.mr+"/discussions/"+single, "", nil))
	assert.Equal(t, true, notesOf(got)[0]["resolvable"])

	// Unresolved threads: the question, the two diff threads (one note still open in the first),
	// the former individual note.
	counts, err := f.In.Services.Notes.UnresolvedThreads(context.Background(), id(servertest.Object(t, f.Do(t, "GET", m.mr, "", nil))["id"]))
	require.NoError(t, err)
	assert.Equal(t, 4, sum(counts))
	for _, d := range servertest.List(t, f.Do(t, "GET", m.mr+"/discussions", "", nil)) {
		if d["individual_note"] == false {
			require.Equal(t, 200, f.Do(t, "PUT", m.mr+"/discussions/"+d["id"].(string), "maintainer", url.Values{"resolved": {"true"}}).Status)
		}
	}
	counts, err = f.In.Services.Notes.UnresolvedThreads(context.Background(), id(servertest.Object(t, f.Do(t, "GET", m.mr, "", nil))["id"]))
	require.NoError(t, err)
	assert.Zero(t, sum(counts))
}

func sum(m map[int]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestMergeRequestNotes_permissions: merge requests private to members hide their notes (404
// Merge Request Not Found), an invisible project is 404 Project Not Found, and a locked
// discussion takes comments from members only.
func TestMergeRequestNotes_permissions(t *testing.T) {
	m := newMRFixture(t, "private")
	f := m.f
	for _, role := range []string{"outsider", ""} {
		servertest.RequireError(t, f.Do(t, "GET", m.mr+"/notes", role, nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, f.Do(t, "GET", m.mr+"/discussions", role, nil), 404, "message", "404 Project Not Found")
	}
	// Guests of a private project read its merge requests? GitLab: Reporter+.
	servertest.RequireError(t, f.Do(t, "GET", m.mr+"/notes", "guest", nil), 404, "message", "404 Merge Request Not Found")
	assert.Equal(t, 200, f.Do(t, "GET", m.mr+"/notes", "reporter", nil).Status)
	assert.Equal(t, 201, f.Do(t, "POST", m.mr+"/discussions", "reporter", url.Values{"body": {"x"}}).Status)
}
