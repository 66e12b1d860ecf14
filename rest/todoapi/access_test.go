package todoapi_test

import (
	"fmt"
	"net/url"
	"sort"
	"testing"

	"anvil/ent"
	"anvil/ent/todo"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTodos_allMention: "@all" mentions every member of the issue's project (its group's
// members, inherited, and its own direct members) who may read the issue, when its author is
// a member; a non-member's "@all" (an outsider on a public project, an administrator) mentions
// nobody. At the start of a line it addresses them directly; comments mention them too.
func TestTodos_allMention(t *testing.T) {
	w := newWorld(t)
	direct, directTok := w.in.NewUser(t, "direct")
	w.in.AddProjectMember(t, w.app, direct, 30)
	w.tokens["direct"] = directTok
	members := []string{"guest", "reporter", "dev", "assignee", "owner", "direct"}

	w.issue(t, w.app, "dev", url.Values{"title": {"Ping"}, "description": {"hello @all"}})
	for _, who := range members {
		assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, who, "")), who)
	}
	assert.Empty(t, w.todos(t, "outsider", ""))
	assert.Empty(t, w.todos(t, "admin", ""), "an administrator who is no member is not in @all")

	t.Run("line start addresses directly", func(t *testing.T) {
		w.issue(t, w.app, "owner", url.Values{"title": {"Standup"}, "description": {"@all please read"}})
		assert.Equal(t, []string{"directly_addressed 2", "mentioned 1"}, summary(w.todos(t, "direct", "")))
	})

	t.Run("non-members mention nobody", func(t *testing.T) {
		w.issue(t, w.site, "outsider", url.Values{"title": {"Spam"}, "description": {"hey @all"}})
		w.issue(t, w.app, "admin", url.Values{"title": {"Admin"}, "description": {"hey @all"}})
		for _, who := range members {
			for _, td := range w.todos(t, who, "") {
				assert.NotEqual(t, "Spam", td["target"].(map[string]any)["title"], who)
				assert.NotEqual(t, "Admin", td["target"].(map[string]any)["title"], who)
			}
		}
	})

	t.Run("confidential issue skips those who cannot read it", func(t *testing.T) {
		is := w.issue(t, w.app, "dev", url.Values{"title": {"Secret"}, "confidential": {"true"}, "description": {"cc @all"}})
		iid := fmt.Sprint(is["iid"])
		has := func(who string) bool {
			for _, td := range w.todos(t, who, "") {
				if fmt.Sprint(td["target"].(map[string]any)["iid"]) == iid {
					return true
				}
			}
			return false
		}
		assert.False(t, has("guest"))
		assert.True(t, has("reporter"))
		assert.True(t, has("direct"))
	})

	t.Run("comments", func(t *testing.T) {
		is := w.issue(t, w.app, "dev", url.Values{"title": {"Quiet"}})
		r := w.in.Do(t, "POST", fmt.Sprintf("%s/%v/notes", w.appIssuesPath, is["iid"]), w.tokens["reporter"],
			url.Values{"body": {"thoughts, @all?"}})
		require.Equal(t, 201, r.Status, r.String())
		var found map[string]any
		for _, td := range w.todos(t, "guest", "") {
			if td["target"].(map[string]any)["title"] == "Quiet" {
				found = td
			}
		}
		require.NotNil(t, found)
		assert.Equal(t, "mentioned", found["action_name"])
		assert.Equal(t, "thoughts, @all?", found["body"])
	})
}

// TestTodos_removedOnLeave: when a user leaves a group or a project, a background job (GitLab's
// TodosDestroyer::EntityLeaveWorker, queued in the removal's transaction) removes the user's
// to-dos on what they may no longer read; to-dos on a public project's issues stay.
func TestTodos_removedOnLeave(t *testing.T) {
	w := newWorld(t)
	w.issue(t, w.app, "dev", url.Values{"title": {"Private"}, "description": {"cc @guest @reporter"}})
	w.issue(t, w.site, "dev", url.Values{"title": {"Public"}, "description": {"cc @guest"}})
	require.Len(t, w.todos(t, "guest", ""), 2)
	count := func(who string) int {
		n, err := w.in.DB.Client.Todo.Query().Where(todo.UserID(w.users[who].ID)).Count(t.Context())
		require.NoError(t, err)
		return n
	}

	r := w.in.Do(t, "DELETE", fmt.Sprintf("/groups/%d/members/%d", w.group.ID, w.users["guest"].ID), w.tokens["owner"], nil)
	require.Equal(t, 204, r.Status, r.String())
	w.in.WaitJobs(t)
	assert.Equal(t, []string{"mentioned 1"}, summary(w.todos(t, "guest", "")))
	assert.Equal(t, "Public", w.todos(t, "guest", "")[0]["target"].(map[string]any)["title"])
	assert.Equal(t, 1, count("guest"), "the private project's to-do is gone, not hidden")
	assert.Equal(t, 1, count("reporter"), "others keep theirs")

	t.Run("project membership", func(t *testing.T) {
		u, tok := w.in.NewUser(t, "contractor")
		w.users["contractor"], w.tokens["contractor"] = u, tok
		w.in.AddProjectMember(t, w.app, u, 30)
		w.issue(t, w.app, "dev", url.Values{"title": {"Job"}, "assignee_ids": {fmt.Sprint(u.ID)}})
		require.Equal(t, 1, count("contractor"))
		r := w.in.Do(t, "DELETE", fmt.Sprintf("/projects/%d/members/%d", w.app.ID, u.ID), tok, nil)
		require.Equal(t, 204, r.Status, r.String())
		w.in.WaitJobs(t)
		assert.Equal(t, 0, count("contractor"))
		assert.Empty(t, w.todos(t, "contractor", ""))
	})

	t.Run("still a member through another membership", func(t *testing.T) {
		w.in.AddProjectMember(t, w.app, w.users["reporter"], 20)
		r := w.in.Do(t, "DELETE", fmt.Sprintf("/groups/%d/members/%d", w.group.ID, w.users["reporter"].ID), w.tokens["owner"],
			url.Values{"skip_subresources": {"true"}})
		require.Equal(t, 204, r.Status, r.String())
		w.in.WaitJobs(t)
		assert.Equal(t, 1, count("reporter"), "the project membership still reads the issue")
	})
}

// TestTodos_allMentionSharedAndInherited: "@all" names the project's whole team as GitLab's
// project.team.members (its authorized users): the members of the groups the project is
// shared with, the members of the groups its group is shared with, and the members of the
// ancestors of a subgroup's project; never the members of an unrelated group.
func TestTodos_allMentionSharedAndInherited(t *testing.T) {
	w := newWorld(t)
	in := w.in
	member := func(group, name string, level int) *ent.Namespace {
		u, tok := in.NewUser(t, name)
		g := in.NewGroup(t, group, "public", nil)
		in.AddGroupMember(t, g, u, level)
		w.users[name], w.tokens[name] = u, tok
		return g
	}
	partners := member("partners", "ally", 30)
	vendor := member("vendor", "contractor", 20)
	member("unrelated", "stranger", 30)
	share := func(path string, g *ent.Namespace, access int) {
		t.Helper()
		r := in.Do(t, "POST", path, w.tokens["owner"], url.Values{"group_id": {fmt.Sprint(g.ID)}, "group_access": {fmt.Sprint(access)}})
		require.Equal(t, 201, r.Status, r.String())
	}
	share(fmt.Sprintf("/projects/%d/share", w.app.ID), partners, 30)
	share(fmt.Sprintf("/groups/%d/share", w.group.ID), vendor, 20)
	sub := in.NewGroup(t, "sub", "private", w.group)
	lib := in.NewProject(t, sub, "lib", "private")

	w.issue(t, w.app, "dev", url.Values{"title": {"Release"}, "description": {"heads up @all"}})
	w.issue(t, lib, "dev", url.Values{"title": {"Lib release"}, "description": {"heads up @all"}})
	titles := func(who string) []string {
		out := []string{}
		for _, td := range w.todos(t, who, "") {
			out = append(out, td["target"].(map[string]any)["title"].(string))
		}
		sort.Strings(out)
		return out
	}
	assert.Equal(t, []string{"Release"}, titles("ally"), "a member of a group the project is shared with")
	assert.Equal(t, []string{"Lib release", "Release"}, titles("contractor"), "a member of a group the project's group (and ancestor) is shared with")
	assert.Equal(t, []string{"Lib release", "Release"}, titles("guest"), "inherited from the group and its ancestor")
	assert.Empty(t, titles("stranger"))
	assert.Empty(t, titles("outsider"))
}
