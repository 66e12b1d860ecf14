package todoapi_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTodos_createdByAssignmentAndMentions: creating an issue gives its assignees "assigned"
// to-dos and the users its text mentions who may read it "directly_addressed" (a line begins
// with them) or "mentioned" ones, the author mentioning itself included; one pending to-do per
// user and issue; outsiders of a private project get none.
func TestTodos_createdByAssignmentAndMentions(t *testing.T) {
	w := newWorld(t)
	is := w.issue(t, w.app, "dev", url.Values{
		"title":        {"Broken build"},
		"description":  {"@reporter, please look.\ncc " + mentions("guest", "outsider", "dev", "assignee", "nobody")},
		"assignee_ids": {strconv.Itoa(w.users["assignee"].ID)},
	})
	assert.Equal(t, []string{"assigned 1"}, summary(w.todos(t, "assignee", "")), "the assignee, also mentioned, has one to-do")
	assert.Equal(t, []string{"directly_addressed 1"}, summary(w.todos(t, "reporter", "")))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "guest", "")))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "dev", "")), "mentioning oneself counts")
	assert.Empty(t, w.todos(t, "outsider", ""), "an outsider cannot read the private project's issue")
	assert.Empty(t, w.todos(t, "owner", ""))

	// The exact shape, target as GET .../issues/:iid presents it.
	list := w.todos(t, "assignee", "")
	require.Len(t, list, 1)
	td := list[0]
	r := w.in.Do(t, "GET", fmt.Sprintf("%s/%v", w.appIssuesPath, is["iid"]), w.tokens["assignee"], nil)
	require.Equal(t, 200, r.Status, r.String())
	var issue map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &issue))
	// GitLab's to-do list presents its targets without "subscribed" (a query per row).
	assert.Equal(t, true, issue["subscribed"], "the assignee is subscribed")
	delete(issue, "subscribed")
	assert.Equal(t, issue, td["target"])
	keys := []string{}
	for k := range td {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"id", "project", "author", "action_name", "target_type", "target",
		"target_url", "body", "state", "created_at", "updated_at"}, keys, "no group for a project's to-do")
	assert.Equal(t, map[string]any{
		"id": float64(w.app.ID), "description": nil, "name": "app", "name_with_namespace": "team / app",
		"path": "app", "path_with_namespace": "team/app", "created_at": td["project"].(map[string]any)["created_at"],
	}, td["project"])
	author := td["author"].(map[string]any)
	assert.Equal(t, "dev", author["username"])
	assert.Equal(t, float64(w.users["dev"].ID), author["id"])
	assert.Equal(t, "assigned", td["action_name"])
	assert.Equal(t, "Issue", td["target_type"])
	assert.Equal(t, w.in.URL+"/team/app/-/issues/1", td["target_url"])
	assert.Equal(t, is["web_url"], td["target_url"])
	assert.Equal(t, "Broken build", td["body"])
	assert.Equal(t, "pending", td["state"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, td["created_at"])
	assert.Equal(t, td["created_at"], td["updated_at"])

	// Self-assignment gives oneself a to-do, as GitLab does.
	w.issue(t, w.app, "owner", url.Values{"title": {"Mine"}, "assignee_ids": {strconv.Itoa(w.users["owner"].ID)}})
	assert.Equal(t, []string{"assigned 2"}, summary(w.todos(t, "owner", "")))
}

// TestTodos_confidentialIssues: a confidential issue's mentions give to-dos only to those who
// may read it (Reporters, the author, the assignees); making an issue confidential removes the
// to-dos of those who no longer may.
func TestTodos_confidentialIssues(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.app, "dev", url.Values{
		"title": {"Secret"}, "confidential": {"true"},
		"description": {"cc " + mentions("guest", "reporter", "dev", "outsider", "theadmin")},
	})
	assert.Empty(t, w.todos(t, "guest", ""), "a Guest does not read confidential issues")
	assert.Empty(t, w.todos(t, "outsider", ""))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "reporter", "")))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "dev", "")))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "admin", "")))

	// An assigned Guest reads it, and gets the to-do.
	w.issue(t, w.app, "dev", url.Values{"title": {"Secret 2"}, "confidential": {"true"},
		"assignee_ids": {strconv.Itoa(w.users["guest"].ID)}})
	assert.Equal(t, []string{"assigned 2"}, summary(w.todos(t, "guest", "")))

	// Turning an issue confidential removes the to-dos of those who lose it.
	w.issue(t, w.app, "dev", url.Values{"title": {"Open"}, "description": {mentions("guest", "reporter")}})
	assert.Equal(t, []string{"assigned 2", "directly_addressed 3"}, summary(w.todos(t, "guest", "")))
	r := w.in.Do(t, "PUT", w.appIssuesPath+"/3", w.tokens["dev"], url.Values{"confidential": {"true"}})
	require.Equal(t, 200, r.Status, r.String())
	w.in.WaitJobs(t) // the removal is a background job, as GitLab's ConfidentialIssueWorker
	assert.Equal(t, []string{"assigned 2"}, summary(w.todos(t, "guest", "")))
	assert.Equal(t, []string{"directly_addressed 3", "mentioned 1"}, summary(w.todos(t, "reporter", "")))
	n, err := w.in.DB.Client.Todo.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 5, n, "the Guest's to-do on issue 3 is gone, not hidden")
}

// TestTodos_editsCloseAndDelete: an edit mentions only the users its previous text did not and
// gives new assignees their to-do; editing or closing an issue marks the editor's own pending
// to-dos on it done; deleting the issue removes its to-dos.
func TestTodos_editsCloseAndDelete(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.app, "dev", url.Values{"title": {"Work"}, "description": {"cc @reporter"}})
	assert.Len(t, w.todos(t, "reporter", ""), 1)

	// The reporter marks its to-do done; the dev's edit keeps @reporter and adds @guest: the
	// reporter is not mentioned anew.
	id := ids(w.todos(t, "reporter", ""))[0]
	require.Equal(t, 201, w.in.Do(t, "POST", fmt.Sprintf("/todos/%d/mark_as_done", id), w.tokens["reporter"], nil).Status)
	r := w.in.Do(t, "PUT", w.appIssuesPath+"/1", w.tokens["dev"], url.Values{
		"description": {"cc @reporter @guest"}, "assignee_ids": {strconv.Itoa(w.users["assignee"].ID)}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, w.todos(t, "reporter", ""))
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "guest", "")))
	assert.Equal(t, []string{"assigned 1"}, summary(w.todos(t, "assignee", "")))

	// The assignee edits the title: its own to-do is done; the Guest's stays.
	r = w.in.Do(t, "PUT", w.appIssuesPath+"/1", w.tokens["assignee"], url.Values{"title": {"Work, renamed"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, w.todos(t, "assignee", ""))
	assert.Equal(t, []string{"assigned 1"}, summary(w.todos(t, "assignee", "?state=done")))
	assert.Len(t, w.todos(t, "guest", ""), 1)

	// The reporter marks a to-do, then closes the issue: the closer's to-dos are done, not
	// the Guest's.
	require.Equal(t, 201, w.in.Do(t, "POST", w.appIssuesPath+"/1/todo", w.tokens["reporter"], nil).Status)
	r = w.in.Do(t, "PUT", w.appIssuesPath+"/1", w.tokens["reporter"], url.Values{"state_event": {"close"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, w.todos(t, "reporter", ""))
	assert.Len(t, w.todos(t, "guest", ""), 1)

	// The owner deletes the issue: every to-do on it goes.
	require.Equal(t, 204, w.in.Do(t, "DELETE", w.appIssuesPath+"/1", w.tokens["owner"], nil).Status)
	n, err := w.in.DB.Client.Todo.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestTodos_filters: each filter of GET /todos alone, bad values, and only the caller's own.
func TestTodos_filters(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.app, "dev", url.Values{"title": {"A1"}, "assignee_ids": {strconv.Itoa(w.users["reporter"].ID)}}) // assigned by dev
	w.issue(t, w.site, "owner", url.Values{"title": {"S1"}, "description": {"cc @reporter"}})                     // mentioned by owner
	w.issue(t, w.site, "dev", url.Values{"title": {"S2"}, "description": {"@reporter look"}})                     // addressed by dev
	other := w.in.NewGroup(t, "other", "public", nil)
	op := w.in.NewProject(t, other, "lib", "public")
	w.issue(t, op, "dev", url.Values{"title": {"L1"}, "description": {"cc @reporter"}})
	require.Equal(t, 201, w.in.Do(t, "POST", fmt.Sprintf("/projects/%d/issues/1/todo", op.ID), w.tokens["dev"], nil).Status)

	titles := func(q string) []string {
		out := []string{}
		for _, td := range w.todos(t, "reporter", q) {
			out = append(out, td["target"].(map[string]any)["title"].(string))
		}
		return out
	}
	assert.Equal(t, []string{"L1", "S2", "S1", "A1"}, titles(""), "newest first")
	assert.Equal(t, []string{"A1"}, titles("?action=assigned"))
	assert.Equal(t, []string{"L1", "S1"}, titles("?action=mentioned"))
	assert.Equal(t, []string{"S2"}, titles("?action=directly_addressed"))
	assert.Empty(t, titles("?action=marked"))
	assert.Equal(t, []string{"S1"}, titles(fmt.Sprintf("?author_id=%d", w.users["owner"].ID)))
	assert.Equal(t, []string{"L1", "S2", "A1"}, titles(fmt.Sprintf("?author_id=%d", w.users["dev"].ID)))
	assert.Equal(t, []string{"S2", "S1"}, titles(fmt.Sprintf("?project_id=%d", w.site.ID)))
	assert.Equal(t, []string{"S2", "S1", "A1"}, titles(fmt.Sprintf("?group_id=%d", w.group.ID)))
	assert.Equal(t, []string{"L1"}, titles(fmt.Sprintf("?group_id=%d", other.ID)))
	assert.Empty(t, titles("?group_id=999999"))
	assert.Equal(t, []string{"L1", "S2", "S1", "A1"}, titles("?type=Issue"))
	assert.Empty(t, titles("?type=MergeRequest"))
	assert.Empty(t, titles("?state=done"))
	assert.Equal(t, []string{"L1"}, summaryTitles(w.todos(t, "dev", "?action=marked")), "the dev's own marked to-do")

	for q, msg := range map[string]string{
		"?action=nope":    "action does not have a valid value",
		"?state=all":      "state does not have a valid value",
		"?type=Snippet":   "type does not have a valid value",
		"?author_id=abc":  "author_id is invalid",
		"?project_id=abc": "project_id is invalid",
	} {
		r := w.in.Do(t, "GET", "/todos"+q, w.tokens["reporter"], nil)
		assert.Equal(t, 400, r.Status, q)
		assert.JSONEq(t, fmt.Sprintf(`{"error":%q}`, msg), string(r.Body), q)
	}
	assert.Equal(t, 401, w.in.Do(t, "GET", "/todos", "", nil).Status)

	// Pagination: headers and pages.
	r := w.in.Do(t, "GET", "/todos?per_page=3&page=2", w.tokens["reporter"], nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
	assert.Len(t, servertest.Decode[[]map[string]any](t, r), 1)
}

func summaryTitles(list []map[string]any) []string {
	out := []string{}
	for _, td := range list {
		out = append(out, td["target"].(map[string]any)["title"].(string))
	}
	return out
}

// TestTodos_markAsDone: one's own to-do (201 with it, done), nobody else's (404), all at once
// (204).
func TestTodos_markAsDone(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.site, "dev", url.Values{"title": {"One"}, "description": {"cc @reporter @guest"}})
	w.issue(t, w.site, "dev", url.Values{"title": {"Two"}, "description": {"cc @reporter"}})
	mine := ids(w.todos(t, "reporter", ""))
	theirs := ids(w.todos(t, "guest", ""))
	require.Len(t, mine, 2)
	require.Len(t, theirs, 1)

	r := w.in.Do(t, "POST", fmt.Sprintf("/todos/%d/mark_as_done", mine[0]), w.tokens["reporter"], nil)
	require.Equal(t, 201, r.Status, r.String())
	o := servertest.Object(t, r)
	assert.Equal(t, "done", o["state"])
	assert.Equal(t, float64(mine[0]), o["id"])
	assert.Equal(t, "Two", o["target"].(map[string]any)["title"])
	// Again: still done, still 201.
	assert.Equal(t, 201, w.in.Do(t, "POST", fmt.Sprintf("/todos/%d/mark_as_done", mine[0]), w.tokens["reporter"], nil).Status)

	for _, path := range []string{fmt.Sprintf("/todos/%d/mark_as_done", theirs[0]), "/todos/999999/mark_as_done", "/todos/abc/mark_as_done"} {
		r := w.in.Do(t, "POST", path, w.tokens["reporter"], nil)
		assert.Equal(t, 404, r.Status, path)
		assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body), path)
	}
	assert.Equal(t, 401, w.in.Do(t, "POST", fmt.Sprintf("/todos/%d/mark_as_done", mine[1]), "", nil).Status)
	assert.Len(t, w.todos(t, "guest", ""), 1, "the Guest's to-do is untouched")

	r = w.in.Do(t, "POST", "/todos/mark_as_done", w.tokens["reporter"], nil)
	require.Equal(t, 204, r.Status, r.String())
	assert.Empty(t, r.Body)
	assert.Empty(t, w.todos(t, "reporter", ""))
	assert.ElementsMatch(t, mine, ids(w.todos(t, "reporter", "?state=done")))
	assert.Len(t, w.todos(t, "guest", ""), 1)
}

// TestTodos_issueTodo: POST /projects/:id/issues/:issue_iid/todo adds a "marked" to-do (201),
// not a second pending one (304); an issue the caller may not read is 404.
func TestTodos_issueTodo(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.app, "dev", url.Values{"title": {"Mark me"}})
	w.issue(t, w.app, "dev", url.Values{"title": {"Secret"}, "confidential": {"true"}})
	path := w.appIssuesPath + "/1/todo"

	r := w.in.Do(t, "POST", path, w.tokens["guest"], nil)
	require.Equal(t, 201, r.Status, r.String())
	o := servertest.Object(t, r)
	assert.Equal(t, "marked", o["action_name"])
	assert.Equal(t, "pending", o["state"])
	assert.Equal(t, "Mark me", o["body"])
	assert.Equal(t, "guest", o["author"].(map[string]any)["username"])
	assert.Equal(t, "Mark me", o["target"].(map[string]any)["title"])

	r = w.in.Do(t, "POST", path, w.tokens["guest"], nil)
	assert.Equal(t, 304, r.Status, r.String())
	assert.Empty(t, r.Body)
	assert.Len(t, w.todos(t, "guest", ""), 1)

	// Once done, the issue can be marked again.
	require.Equal(t, 204, w.in.Do(t, "POST", "/todos/mark_as_done", w.tokens["guest"], nil).Status)
	assert.Equal(t, 201, w.in.Do(t, "POST", path, w.tokens["guest"], nil).Status)

	for _, c := range []struct {
		who, path string
		status    int
	}{
		{"guest", w.appIssuesPath + "/2/todo", 404},     // confidential
		{"outsider", path, 404},                         // private project
		{"reporter", w.appIssuesPath + "/99/todo", 404}, // no such issue
		{"", path, 401},
	} {
		r := w.in.Do(t, "POST", c.path, w.tokens[c.who], nil)
		assert.Equal(t, c.status, r.Status, "%s %s: %s", c.who, c.path, r.String())
	}
	r = w.in.Do(t, "POST", w.appIssuesPath+"/2/todo", w.tokens["guest"], nil)
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))
}

// TestUserCounts: the caller's open assigned issues (not closed ones, nor those of archived
// projects) and pending to-dos; merge request counts are zero.
func TestUserCounts(t *testing.T) {
	w := newWorld(t)
	assignee := url.Values{"assignee_ids": {strconv.Itoa(w.users["guest"].ID)}}
	for _, title := range []string{"A", "B", "C"} {
		f := url.Values{"title": {title}, "assignee_ids": assignee["assignee_ids"]}
		w.issue(t, w.site, "dev", f)
	}
	r := w.in.Do(t, "PUT", fmt.Sprintf("/projects/%d/issues/3", w.site.ID), w.tokens["dev"], url.Values{"state_event": {"close"}})
	require.Equal(t, 200, r.Status, r.String())
	w.issue(t, w.site, "dev", url.Values{"title": {"D"}, "description": {"@guest"}})
	archived := w.in.NewProject(t, w.group, "old", "public")
	w.issue(t, archived, "dev", url.Values{"title": {"E"}, "assignee_ids": assignee["assignee_ids"]})
	r = w.in.Do(t, "POST", fmt.Sprintf("/projects/%d/archive", archived.ID), w.tokens["owner"], nil)
	require.Equal(t, 201, r.Status, r.String())

	r = w.in.Do(t, "GET", "/user_counts", w.tokens["guest"], nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, `{"merge_requests":0,"assigned_issues":2,"assigned_merge_requests":0,
		"review_requested_merge_requests":0,"todos":5}`, string(r.Body))
	assert.Equal(t, `{"merge_requests":0,"assigned_issues":2,"assigned_merge_requests":0,"review_requested_merge_requests":0,"todos":5}`,
		string(r.Body), "GitLab's key order")

	r = w.in.Do(t, "GET", "/user_counts", w.tokens["outsider"], nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.JSONEq(t, `{"merge_requests":0,"assigned_issues":0,"assigned_merge_requests":0,
		"review_requested_merge_requests":0,"todos":0}`, string(r.Body))
	assert.Equal(t, 401, w.in.Do(t, "GET", "/user_counts", "", nil).Status)
}

// TestTodos_groupMentions: mentioning a group gives its members who may read the issue a
// to-do; a group with mentions disabled, or one the author may not see, gives none.
func TestTodos_groupMentions(t *testing.T) {
	w := newWorld(t)
	hidden := w.in.NewGroup(t, "hidden", "private", nil)
	w.in.AddGroupMember(t, hidden, w.users["outsider"], 30)
	w.issue(t, w.app, "dev", url.Values{"title": {"All hands"}, "description": {"cc @team"}})
	for _, who := range []string{"guest", "reporter", "dev", "assignee", "owner"} {
		assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, who, "")), who)
	}
	// The outsider reads the public project's issue, but the dev may not see the private group.
	w.issue(t, w.site, "dev", url.Values{"title": {"Psst"}, "description": {"cc @hidden"}})
	assert.Empty(t, w.todos(t, "outsider", ""))
	w.issue(t, w.site, "admin", url.Values{"title": {"Psst"}, "description": {"cc @hidden"}})
	assert.Equal(t, []string{"mentioned 2"}, summary(w.todos(t, "outsider", "")), "an administrator sees every group")

	_, err := w.in.DB.Client.Namespace.UpdateOne(w.group).SetMentionsDisabled(true).Save(t.Context())
	require.NoError(t, err)
	w.issue(t, w.app, "dev", url.Values{"title": {"Quiet"}, "description": {"@team"}})
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "guest", "")))
}

// TestTodos_noteMentions: a comment on an issue marks the commenter's pending to-dos on it
// done and gives the users it mentions who may read the issue a to-do pointing at the note;
// an internal note's mentions give none.
func TestTodos_noteMentions(t *testing.T) {
	w := newWorld(t)
	is := w.issue(t, w.app, "dev", url.Values{"title": {"Flaky"}, "description": {"cc @reporter"}})
	notes := fmt.Sprintf("%s/%v/notes", w.appIssuesPath, is["iid"])
	require.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "reporter", "")))

	r := w.in.Do(t, "POST", notes, w.tokens["reporter"], url.Values{"body": {"@guest can you check? @outsider too"}})
	require.Equal(t, 201, r.Status, r.String())
	noteID := servertest.Object(t, r)["id"]
	assert.Empty(t, w.todos(t, "reporter", ""), "commenting resolves the commenter's to-dos on the issue")
	assert.Len(t, w.todos(t, "reporter", "?state=done"), 1)
	guest := w.todos(t, "guest", "")
	require.Equal(t, []string{"directly_addressed 1"}, summary(guest))
	assert.Equal(t, "@guest can you check? @outsider too", guest[0]["body"])
	assert.Equal(t, fmt.Sprintf("%s/team/app/-/issues/1#note_%v", w.in.URL, noteID), guest[0]["target_url"])
	assert.Empty(t, w.todos(t, "outsider", ""), "an outsider cannot read the private project's issue")

	r = w.in.Do(t, "POST", notes, w.tokens["reporter"], url.Values{"body": {"@owner internal"}, "internal": {"true"}})
	require.Equal(t, 201, r.Status, r.String())
	assert.Empty(t, w.todos(t, "owner", ""), "an internal note's mentions give no to-do")
}
