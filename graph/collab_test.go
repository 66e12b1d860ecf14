package graph_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awardMutation runs an award mutation (awardEmojiAdd, awardEmojiRemove, awardEmojiToggle) and
// returns its payload.
func awardMutation(t *testing.T, w *issueWorld, token, mutation, id, name string) map[string]any {
	t.Helper()
	extra := ""
	if mutation == "awardEmojiToggle" {
		extra = " toggledOn"
	}
	d := data(t, w.in, token, `mutation($id: AwardableID!, $name: String!) { `+mutation+`(input: {awardableId: $id, name: $name, clientMutationId: "c"}) {
		clientMutationId errors awardEmoji { name description emoji unicode user { username } }`+extra+` } }`,
		map[string]any{"id": id, "name": name})
	return path(d, mutation).(map[string]any)
}

func TestIssueAwardsVotesAndSorts(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Due late", "dueDate": "2031-05-01", "labels": []string{"bug"}})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "No due date", "labels": []string{"feature"}})
	w.create(t, w.carol, "acme/web", map[string]any{"title": "Due soon", "dueDate": "2030-01-01",
		"assigneeIds": []string{"gid://gitlab/User/" + strconv.Itoa(w.bobUser.ID)}})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Hidden", "confidential": true, "dueDate": "2029-01-01"})
	// A guest's assignees are dropped: the owner assigns.
	d := data(t, in, w.alice, `mutation { issueSetAssignees(input: {projectPath: "acme/web", iid: "3", assigneeUsernames: ["bob"]}) { errors } }`, nil)
	require.Equal(t, []any{}, path(d, "issueSetAssignees", "errors"))

	t.Run("award mutations", func(t *testing.T) {
		p := awardMutation(t, w, w.bob, "awardEmojiAdd", w.ids["Due late"], "thumbsup")
		assert.Equal(t, map[string]any{"clientMutationId": "c", "errors": []any{}, "awardEmoji": map[string]any{
			"name": "thumbsup", "description": "thumbsup", "emoji": "👍", "unicode": "👍", "user": map[string]any{"username": "bob"}}}, p)
		p = awardMutation(t, w, w.bob, "awardEmojiAdd", w.ids["Due late"], "thumbsup")
		assert.Equal(t, []any{"Name has already been taken"}, p["errors"])
		assert.Nil(t, p["awardEmoji"])
		p = awardMutation(t, w, w.bob, "awardEmojiAdd", w.ids["Due late"], "not_an_emoji")
		assert.Equal(t, []any{"Name is not a valid emoji name"}, p["errors"])
		p = awardMutation(t, w, w.carol, "awardEmojiAdd", w.ids["Due late"], "+1")
		assert.Equal(t, "thumbsup", path(p, "awardEmoji", "name"), "+1 is stored as thumbsup")
		p = awardMutation(t, w, w.dave, "awardEmojiToggle", w.ids["Due soon"], "thumbsdown")
		assert.Equal(t, true, p["toggledOn"])
		assert.Equal(t, "thumbsdown", path(p, "awardEmoji", "name"))
		p = awardMutation(t, w, w.dave, "awardEmojiToggle", w.ids["Due soon"], "thumbsdown")
		assert.Equal(t, map[string]any{"clientMutationId": "c", "errors": []any{}, "awardEmoji": nil, "toggledOn": false}, p)
		awardMutation(t, w, w.dave, "awardEmojiAdd", w.ids["Due soon"], "heart")
		p = awardMutation(t, w, w.dave, "awardEmojiRemove", w.ids["Due soon"], "tada")
		assert.Equal(t, []any{"User has not awarded emoji of type tada on the awardable"}, p["errors"])
		p = awardMutation(t, w, w.dave, "awardEmojiRemove", w.ids["Due soon"], "heart")
		assert.Equal(t, map[string]any{"clientMutationId": "c", "errors": []any{}, "awardEmoji": nil}, p)
		awardMutation(t, w, w.dave, "awardEmojiAdd", w.ids["Due soon"], "thumbsdown")

		// An issue the caller may not read, an unknown id, anonymous callers: the resource error.
		for _, c := range []struct{ token, id string }{
			{w.dave, w.ids["Hidden"]}, {w.dave, "gid://gitlab/Issue/999999"}, {"", w.ids["Due late"]},
		} {
			r := gql(t, in, c.token, `mutation($id: AwardableID!) { awardEmojiAdd(input: {awardableId: $id, name: "tada"}) { errors } }`,
				map[string]any{"id": c.id})
			assert.Contains(t, r.String(), "The resource that you are attempting to access does not exist or you don't have permission to perform this action", c.id)
		}
		r := gql(t, in, w.dave, `mutation { awardEmojiAdd(input: {awardableId: "nope", name: "tada"}) { errors } }`, nil)
		assert.Contains(t, r.String(), "nope is not a valid GitLab ID.")
	})
	t.Run("awards on notes", func(t *testing.T) {
		d := data(t, in, w.carol, `mutation($id: NoteableID!) { createNote(input: {noteableId: $id, body: "me too"}) { note { id } } }`,
			map[string]any{"id": w.ids["Due late"]})
		noteID := path(d, "createNote", "note", "id").(string)
		p := awardMutation(t, w, w.alice, "awardEmojiAdd", noteID, "rocket")
		assert.Equal(t, []any{}, p["errors"])
		assert.Equal(t, "rocket", path(p, "awardEmoji", "name"))
		iid := "1"
		r := in.Do(t, "GET", "/projects/"+strconv.Itoa(w.web.ID)+"/issues/"+iid+"/notes/"+noteID[len("gid://gitlab/Note/"):]+"/award_emoji", w.alice, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "rocket", decodeList(t, r)[0]["name"])
	})
	t.Run("votes and award lists", func(t *testing.T) {
		d := data(t, in, w.alice, `{ project(fullPath: "acme/web") { issue(iid: "1") { upvotes downvotes
			awardEmoji { count nodes { name user { username } } } } } }`, nil)
		assert.Equal(t, map[string]any{"upvotes": float64(2), "downvotes": float64(0), "awardEmoji": map[string]any{
			"count": float64(2), "nodes": []any{
				map[string]any{"name": "thumbsup", "user": map[string]any{"username": "bob"}},
				map[string]any{"name": "thumbsup", "user": map[string]any{"username": "carol"}}}}}, path(d, "project", "issue"))
		d = data(t, in, w.alice, `{ project(fullPath: "acme/web") { issues(sort: CREATED_ASC) { nodes { title upvotes downvotes } } } }`, nil)
		assert.Equal(t, []any{
			map[string]any{"title": "Due late", "upvotes": float64(2), "downvotes": float64(0)},
			map[string]any{"title": "No due date", "upvotes": float64(0), "downvotes": float64(0)},
			map[string]any{"title": "Due soon", "upvotes": float64(0), "downvotes": float64(1)},
			map[string]any{"title": "Hidden", "upvotes": float64(0), "downvotes": float64(0)},
		}, path(d, "project", "issues", "nodes"))
	})
	t.Run("filters", func(t *testing.T) {
		for _, c := range []struct {
			token, args string
			want        []string
		}{
			{w.bob, `myReactionEmoji: "thumbsup"`, []string{"Due late"}},
			{w.bob, `myReactionEmoji: "NONE"`, []string{"Hidden", "Due soon", "No due date"}},
			{w.bob, `myReactionEmoji: "ANY"`, []string{"Due late"}},
			{w.bob, `not: {myReactionEmoji: "thumbsup"}`, []string{"Hidden", "Due soon", "No due date"}},
			{w.dave, `myReactionEmoji: "thumbsdown"`, []string{"Due soon"}},
			{w.dave, `myReactionEmoji: "thumbsup"`, []string{}},
			{"", `myReactionEmoji: "thumbsup"`, []string{"Due soon", "No due date", "Due late"}},
			{w.alice, `or: {authorUsernames: ["carol", "nobody"]}`, []string{"Due soon"}},
			{w.alice, `or: {authorUsernames: ["carol", "alice"]}`, []string{"Hidden", "Due soon", "No due date", "Due late"}},
			{w.alice, `or: {labelNames: ["bug", "feature"]}`, []string{"No due date", "Due late"}},
			{w.alice, `or: {labelNames: ["feature"]}, labelName: ["bug"]`, []string{}},
			{w.alice, `or: {assigneeUsernames: ["bob", "carol"]}`, []string{"Due soon"}},
			{w.alice, `or: {assigneeUsernames: ["bob"], authorUsernames: ["alice"]}`, []string{}},
			{w.alice, `or: {labelNames: ["bug", "feature"], authorUsernames: ["alice"]}`, []string{"No due date", "Due late"}},
		} {
			assert.Equal(t, c.want, w.webIssues(t, c.token, c.args), c.args)
		}
		d := data(t, in, w.alice, `{ group(fullPath: "acme") { issues(includeSubgroups: true, or: {labelNames: ["feature", "bug"]}) { count } } }`, nil)
		assert.Equal(t, float64(2), path(d, "group", "issues", "count"))
	})
	t.Run("service sorts", func(t *testing.T) {
		for _, c := range []struct {
			token, sort string
			want        []string
		}{
			{w.alice, "DUE_DATE_ASC", []string{"Hidden", "Due soon", "Due late", "No due date"}},
			{w.alice, "DUE_DATE_DESC", []string{"Due late", "Due soon", "Hidden", "No due date"}},
			{w.dave, "DUE_DATE_ASC", []string{"Due soon", "Due late", "No due date"}},
			{w.alice, "POPULARITY_DESC", []string{"Due late", "Hidden", "Due soon", "No due date"}},
			{w.alice, "TITLE_ASC", []string{"Due late", "Due soon", "Hidden", "No due date"}},
		} {
			assert.Equal(t, c.want, w.webIssues(t, c.token, "sort: "+c.sort), c.sort)
		}
		// Pages of an order the cursor pager cannot express: cursors are positions.
		q := `query($after: Cursor, $before: Cursor, $first: Int, $last: Int) { project(fullPath: "acme/web") {
			issues(first: $first, last: $last, after: $after, before: $before, sort: DUE_DATE_ASC) {
			count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { title } } } }`
		var got []string
		vars := map[string]any{"first": 3}
		for i := 0; i < 5; i++ {
			conn := path(data(t, in, w.alice, q, vars), "project", "issues")
			assert.Equal(t, float64(4), path(conn, "count"))
			for _, n := range path(conn, "nodes").([]any) {
				got = append(got, n.(map[string]any)["title"].(string))
			}
			if path(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			vars = map[string]any{"first": 3, "after": path(conn, "pageInfo", "endCursor")}
		}
		assert.Equal(t, []string{"Hidden", "Due soon", "Due late", "No due date"}, got)
		conn := path(data(t, in, w.alice, q, map[string]any{"last": 2}), "project", "issues")
		assert.Equal(t, []any{map[string]any{"title": "Due late"}, map[string]any{"title": "No due date"}}, path(conn, "nodes"))
		assert.Equal(t, true, path(conn, "pageInfo", "hasPreviousPage"))
		conn = path(data(t, in, w.alice, q, map[string]any{"last": 1, "before": path(conn, "pageInfo", "startCursor")}), "project", "issues")
		assert.Equal(t, []any{map[string]any{"title": "Due soon"}}, path(conn, "nodes"))
		r := gql(t, in, w.alice, `{ project(fullPath: "acme/web") { issues(sort: DUE_DATE_ASC, after: "bm90LWEtY3Vyc29y") { count } } }`, nil)
		assert.Contains(t, r.String(), "Please provide a valid cursor")
	})
}

func TestCurrentUserTodos(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Fix login", "assigneeIds": []string{"gid://gitlab/User/" + strconv.Itoa(w.bobUser.ID)}})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Ping", "description": "@bob have a look"})
	w.create(t, w.alice, "acme/web", map[string]any{"title": "Third"})
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(w.web.ID)+"/issues/3/notes", w.carol, url.Values{"body": {"@bob see this"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = in.Do(t, "GET", "/todos", w.bob, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	rest := decodeList(t, r)
	require.Len(t, rest, 3, r.String())
	// Mark the oldest (the assignment) done.
	r = in.Do(t, "POST", "/todos/"+strconv.Itoa(int(rest[2]["id"].(float64)))+"/mark_as_done", w.bob, nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	todos := func(token, args string) []any {
		t.Helper()
		if args != "" {
			args = "(" + args + ")"
		}
		d := data(t, in, token, `{ currentUser { todos`+args+` { count nodes { action state body targetType targetUrl
			author { username } project { fullPath } group { fullPath } targetEntity { webUrl ... on Issue { title } } } } } }`, nil)
		return path(d, "currentUser", "todos", "nodes").([]any)
	}
	webURL := in.URL + "/acme/web/-/issues/"
	// A mention at the start of the text addresses the user directly (GitLab's rule).
	comment := map[string]any{"action": "directly_addressed", "state": "pending", "body": "@bob see this", "targetType": "ISSUE",
		"targetUrl": webURL + "3#note_" + strconv.Itoa(noteID(t, w, "3")), "author": map[string]any{"username": "carol"},
		"project": map[string]any{"fullPath": "acme/web"}, "group": nil,
		"targetEntity": map[string]any{"webUrl": webURL + "3", "title": "Third"}}
	mention := map[string]any{"action": "directly_addressed", "state": "pending", "body": "Ping", "targetType": "ISSUE",
		"targetUrl": webURL + "2", "author": map[string]any{"username": "alice"}, "project": map[string]any{"fullPath": "acme/web"},
		"group": nil, "targetEntity": map[string]any{"webUrl": webURL + "2", "title": "Ping"}}
	assigned := map[string]any{"action": "assigned", "state": "done", "body": "Fix login", "targetType": "ISSUE",
		"targetUrl": webURL + "1", "author": map[string]any{"username": "alice"}, "project": map[string]any{"fullPath": "acme/web"},
		"group": nil, "targetEntity": map[string]any{"webUrl": webURL + "1", "title": "Fix login"}}
	assert.Equal(t, []any{comment, mention}, todos(w.bob, ""))
	assert.Equal(t, []any{assigned}, todos(w.bob, "state: [done]"))
	assert.Equal(t, []any{comment, mention, assigned}, todos(w.bob, "state: [pending, done]"))
	assert.Equal(t, []any{comment, mention}, todos(w.bob, "action: [directly_addressed]"))
	assert.Equal(t, []any{}, todos(w.bob, "action: [mentioned]"))
	assert.Equal(t, []any{assigned}, todos(w.bob, "action: [assigned, mentioned], state: [done]"))
	assert.Equal(t, []any{comment, mention}, todos(w.bob, "type: [ISSUE]"))
	assert.Equal(t, []any{}, todos(w.bob, "type: [MERGEREQUEST]"))
	assert.Equal(t, []any{}, todos(w.carol, ""))

	// Another user's to-dos are not shown; anonymous callers have no current user.
	d := data(t, in, w.alice, `{ user(username: "bob") { todos { count nodes { body } } } }`, nil)
	assert.Equal(t, map[string]any{"count": float64(0), "nodes": []any{}}, path(d, "user", "todos"))
	d = data(t, in, "", `{ currentUser { todos { count } } }`, nil)
	assert.Nil(t, d["currentUser"])

	// Pages, newest first.
	d = data(t, in, w.bob, `{ currentUser { todos(first: 1) { count pageInfo { hasNextPage endCursor } nodes { body } } } }`, nil)
	assert.Equal(t, float64(2), path(d, "currentUser", "todos", "count"))
	assert.Equal(t, []any{map[string]any{"body": "@bob see this"}}, path(d, "currentUser", "todos", "nodes"))
	d = data(t, in, w.bob, `query($c: Cursor) { currentUser { todos(first: 1, after: $c) { pageInfo { hasNextPage } nodes { body id } } } }`,
		map[string]any{"c": path(d, "currentUser", "todos", "pageInfo", "endCursor")})
	assert.Equal(t, "Ping", path(d, "currentUser", "todos", "nodes", 0, "body"))
	assert.Regexp(t, `^gid://gitlab/Todo/\d+$`, path(d, "currentUser", "todos", "nodes", 0, "id"))
	assert.Equal(t, false, path(d, "currentUser", "todos", "pageInfo", "hasNextPage"))
}

// noteID is the id of the first note on issue iid of acme/web.
func noteID(t *testing.T, w *issueWorld, iid string) int {
	t.Helper()
	r := w.in.Do(t, "GET", "/projects/"+strconv.Itoa(w.web.ID)+"/issues/"+iid+"/notes?sort=asc", w.alice, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	for _, n := range decodeList(t, r) {
		if n["system"] == false {
			return int(n["id"].(float64))
		}
	}
	t.Fatal("no note")
	return 0
}

func TestProjectSnippets(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	webPath := "/projects/" + strconv.Itoa(w.web.ID)
	mk := func(token, body string) int {
		t.Helper()
		r := in.Do(t, "POST", webPath+"/snippets", token, body)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return int(decodeObject(t, r)["id"].(float64))
	}
	pub := mk(w.alice, `{"title": "Setup", "description": "how to", "visibility": "public",
		"files": [{"file_path": "setup.sh", "content": "echo hi\n"}, {"file_path": "docs/README.md", "content": "# Read me"}]}`)
	priv := mk(w.alice, `{"title": "Keys", "visibility": "private", "files": [{"file_path": "k.txt", "content": "secret"}]}`)

	q := `{ project(fullPath: "acme/web") { snippets { count nodes { id title description fileName visibilityLevel webUrl rawUrl
		httpUrlToRepo author { username } project { fullPath } blobs { count nodes { name path rawPath rawPlainData size binary } } } } } }`
	d := data(t, in, w.alice, q, nil)
	nodes := path(d, "project", "snippets", "nodes").([]any)
	require.Len(t, nodes, 2)
	web := in.URL + "/acme/web/-/snippets/" + strconv.Itoa(pub)
	assert.Equal(t, map[string]any{"id": "gid://gitlab/ProjectSnippet/" + strconv.Itoa(pub), "title": "Setup", "description": "how to",
		"fileName": "setup.sh", "visibilityLevel": "public", "webUrl": web, "rawUrl": web + "/raw",
		"httpUrlToRepo": in.URL + "/acme/web/snippets/" + strconv.Itoa(pub) + ".git",
		"author":        map[string]any{"username": "alice"}, "project": map[string]any{"fullPath": "acme/web"},
		"blobs": map[string]any{"count": float64(2), "nodes": []any{
			map[string]any{"name": "README.md", "path": "docs/README.md", "rawPath": "/acme/web/-/snippets/" + strconv.Itoa(pub) + "/raw/main/docs/README.md",
				"rawPlainData": "# Read me", "size": float64(9), "binary": false},
			map[string]any{"name": "setup.sh", "path": "setup.sh", "rawPath": "/acme/web/-/snippets/" + strconv.Itoa(pub) + "/raw/main/setup.sh",
				"rawPlainData": "echo hi\n", "size": float64(8), "binary": false},
		}}}, nodes[1])
	assert.Equal(t, "Keys", path(nodes[0], "title"))

	titlesOf := func(token, args string) []string {
		t.Helper()
		out, n := titles(t, in, token, `{ project(fullPath: "acme/web") { snippets`+args+` { count nodes { title } } } }`, "project", "snippets")
		assert.Len(t, out, n)
		return out
	}
	assert.Equal(t, []string{"Setup"}, titlesOf(w.dave, ""), "a non-member sees the public one")
	assert.Equal(t, []string{"Setup"}, titlesOf("", ""), "anonymous too")
	assert.Equal(t, []string{"Keys", "Setup"}, titlesOf(w.carol, ""), "a guest member sees the private one")
	assert.Equal(t, []string{"Keys"}, titlesOf(w.alice, "(visibility: private)"))
	assert.Equal(t, []string{"Setup"}, titlesOf(w.alice, `(ids: ["gid://gitlab/ProjectSnippet/`+strconv.Itoa(pub)+`"])`))
	assert.Equal(t, []string{}, titlesOf(w.alice, `(ids: ["gid://gitlab/ProjectSnippet/999999"])`))
	_ = priv

	d = data(t, in, w.alice, `{ project(fullPath: "acme/web") { snippets(first: 1, ids: ["gid://gitlab/ProjectSnippet/`+strconv.Itoa(pub)+`"]) {
		nodes { blobs(paths: ["setup.sh"]) { nodes { path } } } } } }`, nil)
	assert.Equal(t, []any{map[string]any{"path": "setup.sh"}}, path(d, "project", "snippets", "nodes", 0, "blobs", "nodes"))
	d = data(t, in, w.dave, `{ project(fullPath: "acme/secret") { snippets { count } } }`, nil)
	assert.Nil(t, d["project"])
	r := gql(t, in, w.alice, `{ project(fullPath: "acme/web") { snippets(ids: ["gid://gitlab/Issue/1"]) { count } } }`, nil)
	assert.Contains(t, r.String(), "gid://gitlab/Issue/1 is not a valid ID for ProjectSnippet.")
}

func TestGroupEpics(t *testing.T) {
	w := newIssueWorld(t)
	in := w.in
	gpath := "/groups/" + strconv.Itoa(w.group.ID) + "/epics"
	mk := func(ref string, form url.Values) map[string]any {
		t.Helper()
		r := in.Do(t, "POST", ref, w.alice, form)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return decodeObject(t, r)
	}
	roadmap := mk(gpath, url.Values{"title": {"Roadmap"}, "description": {"the plan"}, "labels": {"org"},
		"start_date_is_fixed": {"true"}, "start_date_fixed": {"2030-01-01"}})
	mk(gpath, url.Values{"title": {"Private plans"}, "confidential": {"true"}})
	child := mk(gpath, url.Values{"title": {"Child"}, "parent_id": {strconv.Itoa(int(roadmap["id"].(float64)))}})
	mk("/groups/"+strconv.Itoa(w.sub.ID)+"/epics", url.Values{"title": {"Sub epic"}})
	r := in.Do(t, "POST", gpath+"/1/award_emoji", w.bob, url.Values{"name": {"thumbsup"}})
	require.Equal(t, http.StatusCreated, r.Status, r.String())

	d := data(t, in, w.dave, `{ group(fullPath: "acme") { epic(iid: "1") { id iid title description state confidential author { username }
		group { fullPath } parent { iid } startDate dueDate startDateIsFixed color upvotes downvotes webUrl webPath reference
		fullReference: reference(full: true) labels { nodes { title } } awardEmoji { nodes { name user { username } } } } } }`, nil)
	assert.Equal(t, map[string]any{"id": "gid://gitlab/Epic/" + strconv.Itoa(int(roadmap["id"].(float64))), "iid": "1",
		"title": "Roadmap", "description": "the plan", "state": "opened", "confidential": false, "author": map[string]any{"username": "alice"},
		"group": map[string]any{"fullPath": "acme"}, "parent": nil, "startDate": "2030-01-01T00:00:00Z", "dueDate": nil,
		"startDateIsFixed": true, "color": "#1068bf", "upvotes": float64(1), "downvotes": float64(0),
		"webUrl": in.URL + "/groups/acme/-/epics/1", "webPath": "/groups/acme/-/epics/1", "reference": "&1", "fullReference": "acme&1",
		"labels":     map[string]any{"nodes": []any{map[string]any{"title": "org"}}},
		"awardEmoji": map[string]any{"nodes": []any{map[string]any{"name": "thumbsup", "user": map[string]any{"username": "bob"}}}},
	}, path(d, "group", "epic"))
	d = data(t, in, w.dave, `{ group(fullPath: "acme") { epic(iid: "3") { parent { iid title } } } }`, nil)
	assert.Equal(t, map[string]any{"iid": "1", "title": "Roadmap"}, path(d, "group", "epic", "parent"))
	_ = child

	list := func(token, args string) []string {
		t.Helper()
		if args != "" {
			args = "(" + args + ")"
		}
		out, n := titles(t, in, token, `{ group(fullPath: "acme") { epics`+args+` { count nodes { title } } } }`, "group", "epics")
		assert.Len(t, out, n)
		return out
	}
	assert.Equal(t, []string{"Sub epic", "Child", "Private plans", "Roadmap"}, list(w.alice, ""))
	assert.Equal(t, []string{"Sub epic", "Child", "Roadmap"}, list(w.dave, ""), "confidential epics need Planner+")
	assert.Equal(t, []string{"Sub epic", "Child", "Roadmap"}, list("", ""), "anonymous")
	assert.Equal(t, []string{"Child", "Private plans", "Roadmap"}, list(w.alice, "includeDescendantGroups: false"))
	assert.Equal(t, []string{"Roadmap"}, list(w.alice, `labelName: ["org"]`))
	assert.Equal(t, []string{"Child"}, list(w.alice, `iid: "3"`))
	assert.Equal(t, []string{"Roadmap"}, list(w.alice, `search: "plan", confidential: false`))
	assert.Equal(t, []string{}, list(w.alice, "state: closed"))
	assert.Equal(t, []string{"Child", "Private plans", "Roadmap", "Sub epic"}, list(w.alice, "sort: TITLE_ASC"))
	assert.Equal(t, []string{"Roadmap", "Private plans", "Child", "Sub epic"}, list(w.alice, "sort: CREATED_AT_ASC"))
	d = data(t, in, w.dave, `{ group(fullPath: "acme") { epic(iid: "2") { title } } }`, nil)
	assert.Nil(t, path(d, "group", "epic"), "a confidential epic is null for a non-member")
	d = data(t, in, w.dave, `{ group(fullPath: "acme") { epic(iid: "99") { title } } }`, nil)
	assert.Nil(t, path(d, "group", "epic"))
}
