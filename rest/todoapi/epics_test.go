package todoapi_test

import (
	"fmt"
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/todo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTodos_epics: mentions in an epic's title and description (on creation, and the new ones
// on an edit) and in its comments give "directly_addressed" and "mentioned" to-dos of target
// type Epic to the users who may read the epic (a confidential epic: Planners and up); the
// to-do has the group, no project, and the epic in its own JSON shape as target; type=Epic
// filters them; marking one done works; an epic's to-dos hide when it becomes unreadable and
// go with it when it is deleted.
func TestTodos_epics(t *testing.T) {
	w := newWorld(t)
	in := w.in
	epicsPath := fmt.Sprintf("/groups/%d/epics", w.group.ID)
	newEpic := func(who string, form url.Values) map[string]any {
		t.Helper()
		r := in.Do(t, "POST", epicsPath, w.tokens[who], form)
		require.Equal(t, 201, r.Status, r.String())
		return servertest.Object(t, r)
	}
	epics := func(who, q string) []map[string]any {
		t.Helper()
		list := w.todos(t, who, q)
		for _, td := range list {
			require.Equal(t, "Epic", td["target_type"], td)
		}
		return list
	}

	roadmap := newEpic("dev", url.Values{"title": {"Roadmap"}, "description": {"@guest please plan\nwith @reporter and @outsider"}})
	assert.Equal(t, []string{"directly_addressed 1"}, summary(epics("guest", "?type=Epic")))
	assert.Equal(t, []string{"mentioned 1"}, summary(epics("reporter", "?type=Epic")))
	assert.Equal(t, []string{"mentioned 1"}, summary(epics("outsider", "?type=Epic")), "the public group's epic is the outsider's to read")
	assert.Empty(t, w.todos(t, "guest", "?type=Issue"))
	assert.Empty(t, w.todos(t, "dev", ""), "no to-do for the author's own epic")

	t.Run("shape", func(t *testing.T) {
		td := w.todos(t, "guest", "")[0]
		assert.Equal(t, []string{"action_name", "author", "body", "created_at", "group", "id", "state", "target", "target_type",
			"target_url", "updated_at"}, servertest.Keys(td), "no project for a group's target")
		assert.Equal(t, "directly_addressed", td["action_name"])
		assert.Equal(t, "Roadmap", td["body"], "the target's title when no comment mentioned")
		assert.Equal(t, "pending", td["state"])
		assert.Equal(t, "dev", td["author"].(map[string]any)["username"])
		group := td["group"].(map[string]any)
		assert.Equal(t, float64(w.group.ID), group["id"])
		assert.Equal(t, "team", group["full_path"])
		r := in.Do(t, "GET", epicsPath, w.tokens["guest"], nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, servertest.List(t, r)[0], td["target"], "the epic as the epics API shows it")
		assert.Equal(t, roadmap["web_url"], td["target_url"])
	})

	t.Run("edit mentions only the new ones", func(t *testing.T) {
		r := in.Do(t, "PUT", fmt.Sprintf("%s/%v", epicsPath, roadmap["iid"]), w.tokens["dev"],
			url.Values{"description": {"@guest please plan\nwith @reporter, @outsider and @owner"}})
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, []string{"mentioned 1"}, summary(epics("owner", "?type=Epic")))
		assert.Len(t, w.todos(t, "guest", ""), 1)
		assert.Len(t, w.todos(t, "reporter", ""), 1)
	})

	t.Run("comments", func(t *testing.T) {
		r := in.Do(t, "POST", fmt.Sprintf("%s/%v/notes", epicsPath, roadmap["id"]), w.tokens["owner"],
			url.Values{"body": {"@dev can you estimate?"}})
		require.Equal(t, 201, r.Status, r.String())
		n := servertest.Object(t, r)
		list := epics("dev", "?type=Epic")
		require.Len(t, list, 1)
		assert.Equal(t, "directly_addressed", list[0]["action_name"])
		assert.Equal(t, "@dev can you estimate?", list[0]["body"])
		assert.Equal(t, fmt.Sprintf("%v#note_%v", roadmap["web_url"], n["id"]), list[0]["target_url"])
		assert.Empty(t, w.todos(t, "owner", ""), "commenting marks the commenter's own to-do done")
	})

	t.Run("mark as done", func(t *testing.T) {
		td := w.todos(t, "guest", "?type=Epic")[0]
		r := in.Do(t, "POST", fmt.Sprintf("/todos/%v/mark_as_done", td["id"]), w.tokens["guest"], nil)
		require.Equal(t, 201, r.Status, r.String())
		done := servertest.Object(t, r)
		assert.Equal(t, "done", done["state"])
		assert.Equal(t, "Epic", done["target_type"])
		assert.Equal(t, roadmap["id"], done["target"].(map[string]any)["id"])
		assert.Empty(t, w.todos(t, "guest", "?type=Epic"))
		assert.Equal(t, []string{"directly_addressed 1"}, summary(epics("guest", "?type=Epic&state=done")))
	})

	t.Run("confidential epics", func(t *testing.T) {
		newEpic("dev", url.Values{"title": {"Secret"}, "confidential": {"true"}, "description": {"cc @guest @reporter"}})
		assert.Empty(t, w.todos(t, "guest", "?type=Epic"), "a Guest may not read confidential epics")
		assert.Equal(t, []string{"mentioned 1", "mentioned 2"}, summary(epics("reporter", "?type=Epic")))

		// The outsider's to-do hides once the epic turns confidential.
		r := in.Do(t, "PUT", fmt.Sprintf("%s/%v", epicsPath, roadmap["iid"]), w.tokens["dev"], url.Values{"confidential": {"true"}})
		require.Equal(t, 200, r.Status, r.String())
		assert.Empty(t, w.todos(t, "outsider", ""))
		r = in.Do(t, "PUT", fmt.Sprintf("%s/%v", epicsPath, roadmap["iid"]), w.tokens["dev"], url.Values{"confidential": {"false"}})
		require.Equal(t, 200, r.Status, r.String())
		assert.Len(t, w.todos(t, "outsider", ""), 1)
	})

	t.Run("@all names the group's members", func(t *testing.T) {
		newEpic("owner", url.Values{"title": {"Kickoff"}, "description": {"hello @all"}})
		for _, who := range []string{"guest", "reporter", "dev", "assignee"} {
			found := false
			for _, td := range epics(who, "?type=Epic") {
				found = found || td["target"].(map[string]any)["title"] == "Kickoff"
			}
			assert.True(t, found, who)
		}
		for _, td := range w.todos(t, "outsider", "") {
			assert.NotEqual(t, "Kickoff", td["target"].(map[string]any)["title"])
		}
	})

	t.Run("deleted with the epic", func(t *testing.T) {
		r := in.Do(t, "DELETE", fmt.Sprintf("%s/%v", epicsPath, roadmap["iid"]), w.tokens["owner"], nil)
		require.Equal(t, 204, r.Status, r.String())
		assert.Empty(t, w.todos(t, "outsider", "?state=done"))
		assert.Empty(t, w.todos(t, "outsider", ""))
		n, err := in.DB.Client.Todo.Query().Where(todo.TargetType("Epic"), todo.TargetID(int(roadmap["id"].(float64)))).Count(t.Context())
		require.NoError(t, err)
		assert.Zero(t, n, "the rows are gone, not hidden")
		assert.Equal(t, []string{"mentioned 2", "mentioned 3"}, summary(epics("reporter", "?type=Epic")), "other epics' stay")
	})
}
