package mergerequestapi_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/awardemoji"
	"anvil/ent/note"
	"anvil/ent/resourcelabelevent"
	"anvil/ent/resourcestateevent"
	"anvil/ent/subscription"
	"anvil/ent/todo"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eventKeys are the fields of each kind of resource event, as GitLab's entities expose them.
var eventKeys = map[string][]string{
	"state":     {"id", "user", "created_at", "resource_type", "resource_id", "source_commit", "source_merge_request_id", "state"},
	"label":     {"id", "user", "created_at", "resource_type", "resource_id", "label", "action"},
	"milestone": {"id", "user", "created_at", "resource_type", "resource_id", "milestone", "action", "state"},
}

// TestResourceEvents records a merge request's label, milestone and state changes (creation,
// edits, close, reopen, merge) as resource events and serves them: exact shapes, pages, single
// events, 404 for another issuable's event and for callers who cannot see the project; the
// issue the merge closes gets a state event naming the merge request.
func TestResourceEvents(t *testing.T) {
	f := newMRFixture(t, "private")
	ctx := context.Background()
	pid := strconv.Itoa(f.P.ID)
	for _, name := range []string{"bug", "ui"} {
		r := f.Do(t, "POST", "/projects/"+pid+"/labels", "maintainer", js(t, map[string]any{"name": name, "color": "#FF0000"}))
		require.Equal(t, 201, r.Status, r.String())
	}
	r := f.Do(t, "POST", "/projects/"+pid+"/milestones", "maintainer", js(t, map[string]any{"title": "v1"}))
	require.Equal(t, 201, r.Status, r.String())
	ms := servertest.Object(t, r)
	r = f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", js(t, map[string]any{"title": "Crash"}))
	require.Equal(t, 201, r.Status, r.String())
	issue := servertest.Object(t, r)

	mr := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Fix",
		"description": "Closes #1", "labels": "bug", "milestone_id": ms["id"]})
	mrID := mr["id"]
	base := f.base + "/1"
	for _, body := range []map[string]any{
		{"add_labels": "ui", "remove_labels": "bug"},
		{"milestone_id": 0},
		{"state_event": "close"},
		{"state_event": "reopen"},
		{"title": "Fix the crash"}, // no event
	} {
		r := f.Do(t, "PUT", base, "developer", js(t, body))
		require.Equal(t, 200, r.Status, r.String())
	}
	r = f.Do(t, "PUT", base+"/merge", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", servertest.Object(t, r)["state"])

	list := func(kind, query string) (*servertest.Response, []map[string]any) {
		t.Helper()
		r := f.Do(t, "GET", base+"/resource_"+kind+"_events"+query, "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		return r, servertest.List(t, r)
	}
	developer := f.Users["developer"]

	t.Run("label events", func(t *testing.T) {
		r, events := list("label", "")
		require.Len(t, events, 3)
		assert.Equal(t, "3", r.Header.Get("X-Total"))
		var got []string
		for _, e := range events {
			assert.ElementsMatch(t, eventKeys["label"], keys(e))
			assert.Equal(t, "MergeRequest", e["resource_type"])
			assert.Equal(t, mrID, e["resource_id"])
			assert.Equal(t, float64(developer.ID), e["user"].(map[string]any)["id"])
			l := e["label"].(map[string]any)
			assert.ElementsMatch(t, []string{"id", "name", "color", "description"}, keys(l))
			got = append(got, e["action"].(string)+" "+l["name"].(string))
		}
		assert.Equal(t, []string{"add bug", "add ui", "remove bug"}, got)

		// Pages: two of three, with GitLab's offset headers.
		r, page := list("label", "?per_page=2&page=1")
		require.Len(t, page, 2)
		assert.Equal(t, "3", r.Header.Get("X-Total"))
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "2", r.Header.Get("X-Per-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Page"))
		assert.Equal(t, "2", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "", r.Header.Get("X-Prev-Page"))
		assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
		_, page2 := list("label", "?per_page=2&page=2")
		require.Len(t, page2, 1)
		assert.Equal(t, events[2]["id"], page2[0]["id"])

		// One event.
		r = f.Do(t, "GET", base+"/resource_label_events/"+strconv.Itoa(int(events[1]["id"].(float64))), "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, events[1], servertest.Object(t, r))
	})

	t.Run("milestone events", func(t *testing.T) {
		_, events := list("milestone", "")
		require.Len(t, events, 2)
		for _, e := range events {
			assert.ElementsMatch(t, eventKeys["milestone"], keys(e))
			assert.Equal(t, "MergeRequest", e["resource_type"])
			assert.Equal(t, mrID, e["resource_id"])
			assert.Equal(t, "opened", e["state"])
			assert.Equal(t, "v1", e["milestone"].(map[string]any)["title"])
		}
		assert.Equal(t, "add", events[0]["action"])
		assert.Equal(t, "remove", events[1]["action"])
		r := f.Do(t, "GET", base+"/resource_milestone_events/"+strconv.Itoa(int(events[0]["id"].(float64))), "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, events[0], servertest.Object(t, r))
	})

	t.Run("state events", func(t *testing.T) {
		r, events := list("state", "")
		require.Len(t, events, 3)
		assert.Equal(t, "3", r.Header.Get("X-Total"))
		var states []string
		for _, e := range events {
			assert.ElementsMatch(t, eventKeys["state"], keys(e))
			assert.Equal(t, "MergeRequest", e["resource_type"])
			assert.Equal(t, mrID, e["resource_id"])
			assert.Nil(t, e["source_commit"])
			assert.Nil(t, e["source_merge_request_id"])
			states = append(states, e["state"].(string))
		}
		assert.Equal(t, []string{"closed", "reopened", "merged"}, states)
		assert.Equal(t, "developer", events[0]["user"].(map[string]any)["username"])
		assert.Equal(t, "maintainer", events[2]["user"].(map[string]any)["username"])
		r = f.Do(t, "GET", base+"/resource_state_events/"+strconv.Itoa(int(events[2]["id"].(float64))), "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, events[2], servertest.Object(t, r))
	})

	t.Run("the issue the merge closed names the merge request", func(t *testing.T) {
		r := f.Do(t, "GET", "/projects/"+pid+"/issues/1/resource_state_events", "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		events := servertest.List(t, r)
		require.Len(t, events, 1)
		assert.Equal(t, "closed", events[0]["state"])
		assert.Equal(t, "Issue", events[0]["resource_type"])
		assert.Equal(t, issue["id"], events[0]["resource_id"])
		assert.Equal(t, mrID, events[0]["source_merge_request_id"])
		assert.Nil(t, events[0]["source_commit"])
	})

	t.Run("not found", func(t *testing.T) {
		// An issue's event through the merge request, and the merge request's through the issue.
		issueEvent, err := f.In.DB.Client.ResourceStateEvent.Query().Where(resourcestateevent.IssueIDNotNil()).OnlyID(ctx)
		require.NoError(t, err)
		mrEvent, err := f.In.DB.Client.ResourceLabelEvent.Query().Where(resourcelabelevent.MergeRequestIDNotNil()).FirstID(ctx)
		require.NoError(t, err)
		for _, path := range []string{
			base + "/resource_state_events/" + strconv.Itoa(issueEvent),
			"/projects/" + pid + "/issues/1/resource_label_events/" + strconv.Itoa(mrEvent),
			base + "/resource_label_events/999999",
			base + "/resource_milestone_events/abc",
		} {
			r := f.Do(t, "GET", path, "reporter", nil)
			servertest.RequireError(t, r, 404, "message", "404 Not found")
		}
		r := f.Do(t, "GET", f.base+"/99/resource_state_events", "reporter", nil)
		servertest.RequireError(t, r, 404, "message", "404 Merge Request Not Found")
		// A private project is invisible to outsiders and anonymous callers.
		for _, role := range []string{"outsider", ""} {
			for kind := range eventKeys {
				r := f.Do(t, "GET", base+"/resource_"+kind+"_events", role, nil)
				servertest.RequireError(t, r, 404, "message", "404 Project Not Found")
				r = f.Do(t, "GET", base+"/resource_"+kind+"_events/1", role, nil)
				servertest.RequireError(t, r, 404, "message", "404 Project Not Found")
			}
		}
	})
}

// TestRawDiffs serves the latest version's diff as plain text, as git prints it, and hides it
// as the merge request.
func TestRawDiffs(t *testing.T) {
	f := newMRFixture(t, "private")
	mr := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Add feature"})
	refs := mr["diff_refs"].(map[string]any)

	r := f.Do(t, "GET", f.base+"/1/raw_diffs", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "text/plain; charset=utf-8", r.Header.Get("Content-Type"))
	assert.Contains(t, r.Header.Get("Cache-Control"), "no-store")
	body := string(r.Body)
	assert.True(t, strings.HasPrefix(body, "diff --git a/feature.txt b/feature.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000.."), body)
	assert.Regexp(t, regexp.MustCompile(`(?m)^index 0{40}\.\.[0-9a-f]{40}$`), body)
	assert.Contains(t, body, "--- /dev/null\n+++ b/feature.txt\n@@ -0,0 +1 @@\n+")
	assert.Equal(t, 1, strings.Count(body, "diff --git "))

	// The same text as git's diff of the diff_refs.
	var want strings.Builder
	require.NoError(t, f.Repo(t, f.P).RawDiff(t.Context(), &want, refs["base_sha"].(string), refs["head_sha"].(string)))
	assert.Equal(t, want.String(), body)

	r = f.Do(t, "GET", f.base+"/2/raw_diffs", "reporter", nil)
	servertest.RequireError(t, r, 404, "message", "404 Merge Request Not Found")
	for _, role := range []string{"outsider", ""} {
		r = f.Do(t, "GET", f.base+"/1/raw_diffs", role, nil)
		servertest.RequireError(t, r, 404, "message", "404 Project Not Found")
	}
}

// TestDelete_removesRelated deletes a merge request with its notes, discussions, awards (its
// own and its notes'), to-dos, subscriptions and resource events, in the deletion; another
// merge request's keep theirs.
func TestDelete_removesRelated(t *testing.T) {
	f := newMRFixture(t, "private")
	ctx := context.Background()
	db := f.In.DB.Client
	pid := strconv.Itoa(f.P.ID)
	r := f.Do(t, "POST", "/projects/"+pid+"/labels", "maintainer", js(t, map[string]any{"name": "bug", "color": "#FF0000"}))
	require.Equal(t, 201, r.Status, r.String())
	addBranch(t, f.RepoFixture, f.P, "other", "other.txt")
	ids := make([]int, 2)
	noteIDs := make([]string, 2)
	for i, source := range []string{"feature", "other"} {
		mr := f.create(t, "developer", map[string]any{"source_branch": source, "target_branch": "main", "title": "MR " + strconv.Itoa(i+1),
			"labels": "bug", "assignee_ids": []int{f.Users["maintainer"].ID}})
		ids[i] = int(mr["id"].(float64))
		mrPath := f.base + "/" + strconv.Itoa(i+1)
		r := f.Do(t, "POST", mrPath+"/notes", "reporter", js(t, map[string]any{"body": "Looks good @developer"}))
		require.Equal(t, 201, r.Status, r.String())
		noteIDs[i] = strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
		r = f.Do(t, "POST", mrPath+"/discussions", "reporter", js(t, map[string]any{"body": "A thread"}))
		require.Equal(t, 201, r.Status, r.String())
		r = f.Do(t, "POST", mrPath+"/award_emoji", "reporter", js(t, map[string]any{"name": "thumbsup"}))
		require.Equal(t, 201, r.Status, r.String())
		r = f.Do(t, "POST", mrPath+"/notes/"+noteIDs[i]+"/award_emoji", "developer", js(t, map[string]any{"name": "tada"}))
		require.Equal(t, 201, r.Status, r.String())
		r = f.Do(t, "POST", mrPath+"/subscribe", "root", nil)
		require.Equal(t, 201, r.Status, r.String())
		r = f.Do(t, "PUT", mrPath, "developer", js(t, map[string]any{"state_event": "close"}))
		require.Equal(t, 200, r.Status, r.String())
	}
	// counts are the rows that belong to merge request id.
	counts := func(id int) map[string]int {
		t.Helper()
		nIDs, err := db.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.NoteableID(id)).IDs(ctx)
		require.NoError(t, err)
		out := map[string]int{"notes": len(nIDs)}
		var n int
		n, err = db.AwardEmoji.Query().Where(awardemoji.AwardableTypeEQ(awardemoji.AwardableTypeMergeRequest), awardemoji.AwardableID(id)).Count(ctx)
		require.NoError(t, err)
		out["awards"] = n
		n, err = db.Todo.Query().Where(todo.TargetType("MergeRequest"), todo.TargetID(id)).Count(ctx)
		require.NoError(t, err)
		out["todos"] = n
		n, err = db.Subscription.Query().Where(subscription.SubscribableTypeEQ(subscription.SubscribableTypeMergeRequest), subscription.SubscribableID(id)).Count(ctx)
		require.NoError(t, err)
		out["subscriptions"] = n
		n, err = db.ResourceLabelEvent.Query().Where(resourcelabelevent.MergeRequestID(id)).Count(ctx)
		require.NoError(t, err)
		out["label events"] = n
		n, err = db.ResourceStateEvent.Query().Where(resourcestateevent.MergeRequestID(id)).Count(ctx)
		require.NoError(t, err)
		out["state events"] = n
		return out
	}
	noteAwards := func() int {
		n, err := db.AwardEmoji.Query().Where(awardemoji.AwardableTypeEQ(awardemoji.AwardableTypeNote)).Count(ctx)
		require.NoError(t, err)
		return n
	}
	for _, id := range ids {
		c := counts(id)
		for _, k := range []string{"notes", "awards", "todos", "subscriptions", "label events", "state events"} {
			require.Positive(t, c[k], "%s of merge request %d", k, id)
		}
	}
	require.Equal(t, 2, noteAwards())
	kept := counts(ids[1])

	// Deleting is for owners: a maintainer may not.
	r = f.Do(t, "DELETE", f.base+"/1", "maintainer", nil)
	require.Equal(t, 403, r.Status, r.String())
	r = f.Do(t, "DELETE", f.base+"/1", "root", nil)
	require.Equal(t, 204, r.Status, r.String())

	assert.Equal(t, map[string]int{"notes": 0, "awards": 0, "todos": 0, "subscriptions": 0, "label events": 0, "state events": 0}, counts(ids[0]))
	assert.Equal(t, kept, counts(ids[1]))
	assert.Equal(t, 1, noteAwards())

	// Through the API: the merge request, its notes and events are gone; the other's remain.
	for _, path := range []string{"", "/notes", "/notes/" + noteIDs[0], "/discussions", "/award_emoji", "/resource_label_events", "/resource_state_events"} {
		r := f.Do(t, "GET", f.base+"/1"+path, "reporter", nil)
		servertest.RequireError(t, r, 404, "message", "404 Merge Request Not Found")
	}
	r = f.Do(t, "GET", f.base+"/2/notes/"+noteIDs[1], "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	r = f.Do(t, "GET", "/todos?type=MergeRequest", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	for _, td := range servertest.List(t, r) {
		assert.Equal(t, float64(ids[1]), td["target"].(map[string]any)["id"])
	}
}

// TestVersions_emptyAndCleaned: a version without file changes is empty (GitLab's save_diffs
// keeps its initial state), and merging marks the older versions without_files, their files
// deleted, while the latest keeps its files.
func TestVersions_emptyAndCleaned(t *testing.T) {
	f := newMRFixture(t, "private")
	f.In.WaitJobs(t)
	repo := f.Repo(t, f.P)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	// A commit that changes nothing: main's tree again.
	same := gittest.WriteCommit(t, repo, gittest.Write{Base: main.Commit.ID, Parents: []git.ObjectID{main.Commit.ID},
		Minute: 5, Message: "Empty\n"})
	gittest.SetRef(t, repo, git.BranchRef("empty"), same)
	f.create(t, "developer", map[string]any{"source_branch": "empty", "target_branch": "main", "title": "Nothing"})
	r := f.Do(t, "GET", f.base+"/1/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 1)
	assert.Equal(t, "empty", list[0]["state"])
	assert.Equal(t, "0", list[0]["real_size"])
	r = f.Do(t, "GET", f.base+"/1/raw_diffs", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Empty(t, r.Body)

	// Two versions of feature, then the merge.
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Feature"})
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/repository/commits", "developer", js(t, map[string]any{
		"branch": "feature", "commit_message": "More",
		"actions": []map[string]any{{"action": "create", "file_path": "more.txt", "content": "more\n"}},
	}))
	require.Equal(t, 201, r.Status, r.String())
	f.In.WaitJobs(t)
	r = f.Do(t, "GET", f.base+"/2/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list = servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, []any{"collected", "collected"}, []any{list[0]["state"], list[1]["state"]})
	older := strconv.Itoa(int(list[1]["id"].(float64)))
	r = f.Do(t, "GET", f.base+"/2/versions/"+older, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Len(t, servertest.Object(t, r)["diffs"], 1)

	r = f.Do(t, "PUT", f.base+"/2/merge", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	r = f.Do(t, "GET", f.base+"/2/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list = servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, "collected", list[0]["state"])
	assert.Equal(t, "without_files", list[1]["state"])
	r = f.Do(t, "GET", f.base+"/2/versions/"+older, "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	v := servertest.Object(t, r)
	assert.Empty(t, v["diffs"])
	assert.Len(t, v["commits"], 1) // the commits stay
	r = f.Do(t, "GET", f.base+"/2/diffs", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 2) // the latest version keeps its files
}
