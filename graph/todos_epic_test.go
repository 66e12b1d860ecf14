package graph_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCurrentUserTodos_epics: currentUser.todos lists epic to-dos as GET /todos does, from the
// same service: body (the comment, else the epic's title), targetType EPIC, the epic's URL
// (with the comment's anchor), the group and no project, the epic as targetEntity. An epic the
// user may no longer read drops out of both.
func TestCurrentUserTodos_epics(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	gpath := "/groups/" + strconv.Itoa(w.group.ID) + "/epics"
	r := in.Do(t, "POST", gpath, w.alice, url.Values{"title": {"Roadmap"}, "description": {"@bob please plan"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	// One pending to-do per user and target (GitLab's default): bob is done with the first
	// before the comment mentions him again.
	r = in.Do(t, "GET", "/todos", w.bob, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	first := decodeList(t, r)
	require.Len(t, first, 1, r.String())
	r = in.Do(t, "POST", "/todos/"+strconv.Itoa(int(first[0]["id"].(float64)))+"/mark_as_done", w.bob, nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = in.Do(t, "POST", gpath+"/1/notes", w.carol, url.Values{"body": {"@bob see the epic"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	note := int(decodeObject(t, r)["id"].(float64))
	// An epic dave is mentioned in, made confidential afterwards: dave, not a member, may no
	// longer read it.
	r = in.Do(t, "POST", gpath, w.alice, url.Values{"title": {"Secret plan"}, "description": {"cc @dave"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = in.Do(t, "GET", "/todos", w.dave, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	require.Len(t, decodeList(t, r), 1, r.String())
	r = in.Do(t, "PUT", gpath+"/2", w.alice, url.Values{"confidential": {"true"}})
	require.Equal(t, http.StatusOK, r.Status, r.String())
	in.WaitJobs(t)

	todos := func(token, args string) []any {
		t.Helper()
		if args != "" {
			args = "(" + args + ")"
		}
		d := data(t, in, token, `{ currentUser { todos`+args+` { count nodes { action state body targetType targetUrl
			author { username } project { fullPath } group { fullPath }
			targetEntity { __typename webUrl ... on Epic { iid title state group { fullPath } } } } } } }`, nil)
		return path(d, "currentUser", "todos", "nodes").([]any)
	}
	epicURL := in.URL + "/groups/acme/-/epics/1"
	entity := map[string]any{"__typename": "Epic", "webUrl": epicURL, "iid": "1", "title": "Roadmap", "state": "opened",
		"group": map[string]any{"fullPath": "acme"}}
	comment := map[string]any{"action": "directly_addressed", "state": "pending", "body": "@bob see the epic",
		"targetType": "EPIC", "targetUrl": epicURL + "#note_" + strconv.Itoa(note), "author": map[string]any{"username": "carol"},
		"project": nil, "group": map[string]any{"fullPath": "acme"}, "targetEntity": entity}
	mention := map[string]any{"action": "directly_addressed", "state": "done", "body": "Roadmap",
		"targetType": "EPIC", "targetUrl": epicURL, "author": map[string]any{"username": "alice"},
		"project": nil, "group": map[string]any{"fullPath": "acme"}, "targetEntity": entity}
	assert.Equal(t, []any{comment}, todos(w.bob, ""))
	assert.Equal(t, []any{comment, mention}, todos(w.bob, "state: [pending, done]"))
	assert.Equal(t, []any{comment, mention}, todos(w.bob, "type: [EPIC], state: [pending, done]"))
	assert.Equal(t, []any{}, todos(w.bob, "type: [ISSUE], state: [pending, done]"))
	assert.Equal(t, []any{}, todos(w.dave, "state: [pending, done]"), "an epic dave may not read")
	d := data(t, in, w.bob, `{ currentUser { todos(type: [EPIC], state: [pending, done]) { count } } }`, nil)
	assert.Equal(t, float64(2), path(d, "currentUser", "todos", "count"))

	// REST shows the same to-dos with the same body and URL (one service).
	r = in.Do(t, "GET", "/todos?state=done", w.bob, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	rest := decodeList(t, r)
	r = in.Do(t, "GET", "/todos", w.bob, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	rest = append(decodeList(t, r), rest...)
	require.Len(t, rest, 2)
	for i, want := range []map[string]any{comment, mention} {
		assert.Equal(t, want["body"], rest[i]["body"])
		assert.Equal(t, want["targetUrl"], rest[i]["target_url"])
		assert.Equal(t, "Epic", rest[i]["target_type"])
		assert.Equal(t, "Roadmap", path(rest[i], "target", "title"))
		assert.Nil(t, rest[i]["project"])
		assert.Equal(t, "acme", path(rest[i], "group", "full_path"))
	}
	r = in.Do(t, "GET", "/todos?state=done", w.dave, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Empty(t, decodeList(t, r))
	r = in.Do(t, "GET", "/todos", w.dave, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Empty(t, decodeList(t, r))
}
