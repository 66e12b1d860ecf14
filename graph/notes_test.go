package graph_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bodies are the bodies of a connection's notes, in order.
func bodies(conn any) []string {
	out := []string{}
	for _, n := range path(conn, "nodes").([]any) {
		out = append(out, n.(map[string]any)["body"].(string))
	}
	return out
}

func TestIssueNotes(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	crash := w.create(t, w.alice, "acme/web", map[string]any{"title": "Crash"})["id"]
	secret := w.create(t, w.alice, "acme/web", map[string]any{"title": "Secret", "confidential": true})["id"]
	note := func(token string, input map[string]any) map[string]any {
		t.Helper()
		d := data(t, in, token, `mutation($in: CreateNoteInput!) { createNote(input: $in) { clientMutationId errors note {
			id body internal system resolvable resolved author { username } } } }`, map[string]any{"in": input})
		return d["createNote"].(map[string]any)
	}

	first := note(w.carol, map[string]any{"noteableId": crash, "body": "It crashes for me too", "clientMutationId": "n1"})
	assert.Equal(t, "n1", first["clientMutationId"])
	assert.Equal(t, []any{}, first["errors"])
	assert.Regexp(t, `^gid://gitlab/Note/\d+$`, path(first, "note", "id"))
	assert.Equal(t, map[string]any{"body": "It crashes for me too", "internal": false, "system": false, "resolvable": false, "resolved": false,
		"author": map[string]any{"username": "carol"}}, delete2(first["note"].(map[string]any), "id"))
	internal := note(w.alice, map[string]any{"noteableId": crash, "body": "Looks like the cache", "internal": true})
	assert.Equal(t, true, path(internal, "note", "internal"))
	assert.Equal(t, false, path(note(w.carol, map[string]any{"noteableId": crash, "body": "guest note", "internal": true}), "note", "internal"),
		"a guest cannot write internal notes: the flag is dropped")
	data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "1", title: "Crash on start"}) { errors } }`, nil)

	t.Run("notes and filters", func(t *testing.T) {
		d := data(t, in, w.bob, `query($id: ID!) { node(id: $id) { ... on Issue { userNotesCount
			all: notes { count nodes { body } } comments: notes(filter: ONLY_COMMENTS) { count nodes { body } }
			activity: notes(filter: ONLY_ACTIVITY) { nodes { body system author { username } } } } } }`, map[string]any{"id": crash})
		is := d["node"].(map[string]any)
		assert.Equal(t, float64(3), is["userNotesCount"])
		assert.Equal(t, []string{"It crashes for me too", "Looks like the cache", "guest note"}, bodies(is["comments"]))
		assert.Equal(t, float64(4), path(is, "all", "count"))
		assert.Equal(t, []any{map[string]any{"body": "changed title from **Crash** to **Crash{+ on start+}**", "system": true,
			"author": map[string]any{"username": "alice"}}}, path(is, "activity", "nodes"))
		// A guest does not read internal notes.
		d = data(t, in, w.carol, `query($id: ID!) { node(id: $id) { ... on Issue { notes(filter: ONLY_COMMENTS) { count nodes { body } } } } }`, map[string]any{"id": crash})
		assert.Equal(t, []string{"It crashes for me too", "guest note"}, bodies(path(d, "node", "notes")))
		d = data(t, in, w.alice, `query($id: ID!) { node(id: $id) { ... on Issue { notes(first: 1) { pageInfo { hasNextPage endCursor } nodes { body } } } } }`, map[string]any{"id": crash})
		assert.Equal(t, []string{"It crashes for me too"}, bodies(path(d, "node", "notes")))
		d = data(t, in, w.alice, `query($id: ID!, $a: Cursor) { node(id: $id) { ... on Issue { notes(first: 2, after: $a) { nodes { body } } } } }`,
			map[string]any{"id": crash, "a": path(d, "node", "notes", "pageInfo", "endCursor")})
		assert.Equal(t, []string{"Looks like the cache", "guest note"}, bodies(path(d, "node", "notes")))
	})
	t.Run("discussions and replies", func(t *testing.T) {
		q := `query($id: ID!) { node(id: $id) { ... on Issue { discussions(filter: ONLY_COMMENTS) { count nodes { id replyId individualNote createdAt notes { nodes { id body } } } } } } }`
		d := data(t, in, w.alice, q, map[string]any{"id": crash})
		ds := path(d, "node", "discussions", "nodes").([]any)
		require.Len(t, ds, 3)
		firstDiscussion := ds[0].(map[string]any)
		assert.Regexp(t, `^gid://gitlab/Discussion/[0-9a-f]{40}$`, firstDiscussion["id"])
		assert.Equal(t, true, firstDiscussion["individualNote"])
		reply := note(w.bob, map[string]any{"noteableId": crash, "body": "Fixed in main", "discussionId": firstDiscussion["replyId"]})
		assert.Equal(t, []any{}, reply["errors"])
		assert.Regexp(t, `^gid://gitlab/DiscussionNote/\d+$`, path(reply, "note", "id"))
		d = data(t, in, w.alice, q, map[string]any{"id": crash})
		thread := path(d, "node", "discussions", "nodes", 0).(map[string]any)
		assert.Equal(t, firstDiscussion["id"], thread["id"])
		assert.Equal(t, false, thread["individualNote"], "a reply turns the note into a thread")
		assert.Equal(t, []string{"It crashes for me too", "Fixed in main"}, bodies(thread["notes"]))
		r := gql(t, in, w.bob, `mutation { createNote(input: {noteableId: "`+crash.(string)+`", body: "x", discussionId: "gid://gitlab/Discussion/`+
			"0000000000000000000000000000000000000000"+`"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("createNote", "NOT_FOUND"))
	})
	t.Run("refusals", func(t *testing.T) {
		assert.Equal(t, map[string]any{"clientMutationId": nil, "errors": []any{"Note can't be blank"}, "note": nil},
			note(w.alice, map[string]any{"noteableId": crash, "body": "  "}))
		r := gql(t, in, w.dave, `mutation { createNote(input: {noteableId: "`+secret.(string)+`", body: "peek"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("createNote", "NOT_FOUND"))
		d := data(t, in, w.dave, `query($id: ID!) { node(id: $id) { ... on Issue { notes { count } } } }`, map[string]any{"id": secret})
		assert.Nil(t, d["node"])
		r = gql(t, in, "", `mutation($id: NoteableID!) { createNote(input: {noteableId: $id, body: "anon"}) { errors } }`, map[string]any{"id": crash})
		assert.Contains(t, r.String(), `"createNote":null`)
		r = gql(t, in, w.alice, `mutation { createNote(input: {noteableId: "gid://gitlab/Project/1", body: "x"}) { errors } }`, nil)
		assert.Contains(t, r.String(), "is not a valid ID for Issue.")
		// A locked discussion takes comments from project members only.
		data(t, in, w.alice, `mutation { updateIssue(input: {projectPath: "acme/web", iid: "1", locked: true}) { errors } }`, nil)
		r = gql(t, in, w.dave, `mutation { createNote(input: {noteableId: "`+crash.(string)+`", body: "outsider"}) { errors } }`, nil)
		assertJSON(t, r, http.StatusOK, resourceError("createNote", "FORBIDDEN"))
		assert.Equal(t, []any{}, note(w.carol, map[string]any{"noteableId": crash, "body": "member"})["errors"])
	})
}

// delete2 returns m without key.
func delete2(m map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// TestIssueNotes_crossReferenceVisibility: the cross-reference note a private project's issue
// writes on a public project's issue is in the notes and discussions connections (and their
// counts) of readers of the private issue only.
func TestIssueNotes_crossReferenceVisibility(t *testing.T) {
	in := servertest.Start(t)
	pub := in.NewProject(t, in.NewGroup(t, "pub", "public", nil), "site", "public")
	priv := in.NewProject(t, in.NewGroup(t, "priv", "private", nil), "app", "private")
	insider, insiderTok := in.NewUser(t, "insider")
	in.AddProjectMember(t, priv, insider, 10)
	_, outsiderTok := in.NewUser(t, "outsider")
	for _, c := range []struct {
		project int
		token   string
		form    url.Values
	}{
		{pub.ID, servertest.RootToken, url.Values{"title": {"Public"}}},
		{priv.ID, insiderTok, url.Values{"title": {"Private"}, "description": {"See pub/site#1"}}},
	} {
		r := in.Do(t, "POST", "/projects/"+strconv.Itoa(c.project)+"/issues", c.token, c.form)
		require.Equal(t, 201, r.Status, r.String())
	}
	q := `{ project(fullPath: "pub/site") { issue(iid: "1") {
		notes { count nodes { body } } discussions { count nodes { notes { nodes { body } } } } } } }`
	for _, c := range []struct {
		who, token string
		want       []string
	}{
		{"member", insiderTok, []string{"mentioned in issue priv/app#1"}},
		{"non-member", outsiderTok, []string{}},
		{"anonymous", "", []string{}},
	} {
		t.Run(c.who, func(t *testing.T) {
			is := path(data(t, in, c.token, q, nil), "project", "issue")
			assert.Equal(t, c.want, bodies(path(is, "notes")))
			assert.Equal(t, float64(len(c.want)), path(is, "notes", "count"))
			assert.Equal(t, float64(len(c.want)), path(is, "discussions", "count"))
		})
	}
}
