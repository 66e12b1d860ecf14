package eventapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/event"
	"anvil/internal/service/events"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// feed is a fixture: a private project "feed" in the public group g, created by the
// maintainer through the API with a README, then changed by every action that records an event
// today; and a public project "open" of the maintainer's with one API commit.
type feed struct {
	f          *servertest.RepoFixture
	id, openID int
	sha        map[string]string // commit ids: readme, main, topic, open
}

func newFeed(t *testing.T) *feed {
	t.Helper()
	f := servertest.NewRepoFixture(t)
	d := &feed{f: f, sha: map[string]string{}}
	create := func(path, visibility string) (int, string) {
		r := f.Do(t, "POST", "/projects", "maintainer", fmt.Sprintf(
			`{"path":%q,"namespace_id":%d,"visibility":%q,"initialize_with_readme":true}`, path, f.Group.ID, visibility))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		id := int(o["id"].(float64))
		return id, d.branchTip(t, id, "main")
	}
	d.id, d.sha["readme"] = create("feed", "private")
	base := fmt.Sprintf("/projects/%d/repository", d.id)
	commit := func(role, branch, file, msg string) string {
		r := f.Do(t, "POST", base+"/commits", role, fmt.Sprintf(
			`{"branch":%q,"commit_message":%q,"actions":[{"action":"create","file_path":%q,"content":"x"}]}`, branch, msg, file))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return servertest.Object(t, r)["id"].(string)
	}
	d.sha["main"] = commit("maintainer", "main", "a.txt", "Add a\n\nWith a body.")
	r := f.Do(t, "POST", base+"/branches?branch=topic&ref=main", "developer", nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	d.sha["topic"] = commit("developer", "topic", "b.txt", "Add b")
	require.Equal(t, http.StatusNoContent, f.Do(t, "DELETE", base+"/branches/topic", "developer", nil).Status)
	r = f.Do(t, "POST", base+"/tags?tag_name=v1&ref=main", "maintainer", nil)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	members := fmt.Sprintf("/projects/%d/members", d.id)
	r = f.Do(t, "POST", members, "maintainer", fmt.Sprintf(`{"user_id":%d,"access_level":20}`, f.Users["outsider"].ID))
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = f.Do(t, "DELETE", members+"/"+strconv.Itoa(f.Users["outsider"].ID), "maintainer", nil)
	require.Equal(t, http.StatusNoContent, r.Status, r.String())

	d.openID, _ = create("open", "public")
	r = f.Do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", d.openID), "maintainer",
		`{"branch":"main","commit_message":"Open change","actions":[{"action":"create","file_path":"o.txt","content":"o"}]}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	d.sha["open"] = servertest.Object(t, r)["id"].(string)
	return d
}

func (d *feed) branchTip(t *testing.T, projectID int, branch string) string {
	t.Helper()
	r := d.f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/%s", projectID, branch), "maintainer", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	return servertest.Object(t, r)["commit"].(map[string]any)["id"].(string)
}

// summary is "author action_name ref" of each event ("author action_name" without a push).
func summary(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, e := range items {
		out[i] = fmt.Sprint(e["author_username"], " ", e["action_name"])
		if pd, ok := e["push_data"].(map[string]any); ok {
			out[i] += fmt.Sprint(" ", pd["ref_type"], " ", pd["ref"])
		}
	}
	return out
}

var allFeedEvents = []string{
	"maintainer created",
	"maintainer pushed new branch main",
	"maintainer pushed to branch main",
	"developer pushed new branch topic",
	"developer pushed to branch topic",
	"developer deleted branch topic",
	"maintainer pushed new tag v1",
	"outsider joined",
	"outsider left",
}

func TestEvents_ProjectFeedRecordsEveryAction(t *testing.T) {
	d := newFeed(t)
	f := d.f
	path := fmt.Sprintf("/projects/%d/events", d.id)

	r := f.Do(t, "GET", path+"?sort=asc", "reporter", nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	list := servertest.List(t, r)
	assert.Equal(t, allFeedEvents, summary(list))
	assert.Equal(t, "9", r.Header.Get("X-Total"))

	// Newest first by default.
	desc := servertest.List(t, f.Do(t, "GET", path, "reporter", nil))
	require.Len(t, desc, len(list))
	assert.Equal(t, list[0]["id"], desc[len(desc)-1]["id"])

	t.Run("exact shape of a push", func(t *testing.T) {
		e := list[2]
		u := f.Users["maintainer"]
		assert.Equal(t, map[string]any{
			"id": e["id"], "title": nil, "project_id": float64(d.id), "action_name": "pushed to",
			"target_id": nil, "target_iid": nil, "target_type": nil, "author_id": float64(u.ID),
			"target_title": nil, "created_at": e["created_at"],
			"author": map[string]any{
				"id": float64(u.ID), "username": "maintainer", "name": "User maintainer", "state": "active",
				"locked": false, "avatar_url": e["author"].(map[string]any)["avatar_url"],
				"web_url": f.In.URL + "/maintainer",
			},
			"imported": false, "imported_from": "none",
			"push_data": map[string]any{
				"commit_count": float64(1), "action": "pushed", "ref_type": "branch",
				"commit_from": d.sha["readme"], "commit_to": d.sha["main"], "ref": "main",
				"commit_title": "Add a", "ref_count": nil,
			},
			"author_username": "maintainer",
		}, e)
		_, err := time.Parse("2006-01-02T15:04:05.000Z", e["created_at"].(string))
		assert.NoError(t, err)
	})
	t.Run("payloads of created, removed and tag pushes", func(t *testing.T) {
		pd := func(i int) map[string]any { return list[i]["push_data"].(map[string]any) }
		assert.Equal(t, map[string]any{"commit_count": float64(1), "action": "created", "ref_type": "branch",
			"commit_from": nil, "commit_to": d.sha["readme"], "ref": "main", "commit_title": "Initial commit", "ref_count": nil}, pd(1))
		// A new branch with no commits of its own, as GitLab counts them.
		assert.Equal(t, map[string]any{"commit_count": float64(0), "action": "created", "ref_type": "branch",
			"commit_from": nil, "commit_to": d.sha["main"], "ref": "topic", "commit_title": nil, "ref_count": nil}, pd(3))
		assert.Equal(t, map[string]any{"commit_count": float64(0), "action": "removed", "ref_type": "branch",
			"commit_from": d.sha["topic"], "commit_to": nil, "ref": "topic", "commit_title": nil, "ref_count": nil}, pd(5))
		assert.Equal(t, "created", pd(6)["action"])
		assert.Equal(t, "tag", pd(6)["ref_type"])
		assert.Equal(t, d.sha["main"], pd(6)["commit_to"])
	})
	t.Run("events without a push carry no push_data", func(t *testing.T) {
		for _, i := range []int{0, 7, 8} {
			assert.NotContains(t, list[i], "push_data", list[i]["action_name"])
			assert.Nil(t, list[i]["target_type"])
		}
		assert.Equal(t, float64(f.Users["outsider"].ID), list[7]["author_id"])
	})
	t.Run("a deleted project's events go with it", func(t *testing.T) {
		root := f.In.NewToken(t, f.Root.ID, "api")
		require.Equal(t, http.StatusAccepted, f.In.Do(t, "DELETE", fmt.Sprintf("/projects/%d", d.openID), root, nil).Status)
		n, err := f.In.DB.Client.Event.Query().Where(event.ProjectID(d.openID)).Count(context.Background())
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}

func TestEvents_Visibility(t *testing.T) {
	d := newFeed(t)
	f := d.f
	project := fmt.Sprintf("/projects/%d/events", d.id)

	t.Run("a private project's events: 404 for anonymous callers and non-members", func(t *testing.T) {
		for _, role := range []string{"", "outsider"} {
			servertest.RequireError(t, f.Do(t, "GET", project, role, nil), http.StatusNotFound, "message", "404 Project Not Found")
		}
	})
	t.Run("guests see no pushes: they may not read the code", func(t *testing.T) {
		list := servertest.List(t, f.Do(t, "GET", project+"?sort=asc", "guest", nil))
		assert.Equal(t, []string{"maintainer created", "outsider joined", "outsider left"}, summary(list))
		list = servertest.List(t, f.Do(t, "GET", project+"?sort=asc&action=pushed", "guest", nil))
		assert.Empty(t, list)
	})
	t.Run("a user's events: only those of projects the caller can see", func(t *testing.T) {
		open := []string{"maintainer pushed to branch main", "maintainer pushed new branch main", "maintainer created"}
		for _, role := range []string{"", "outsider"} {
			r := f.Do(t, "GET", "/users/maintainer/events", role, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			list := servertest.List(t, r)
			assert.Equal(t, open, summary(list), role)
			for _, e := range list {
				assert.Equal(t, float64(d.openID), e["project_id"])
			}
		}
		// The same user by id; a guest of the group also sees the private project's
		// creation, but not its pushes.
		list := servertest.List(t, f.Do(t, "GET", fmt.Sprintf("/users/%d/events", f.Users["maintainer"].ID), "guest", nil))
		assert.Equal(t, append(append([]string{}, open...), "maintainer created"), summary(list))
		assert.Len(t, servertest.List(t, f.Do(t, "GET", "/users/maintainer/events", "reporter", nil)), 7)
		// The outsider's own joined/left events are in a project it can no longer see.
		assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/users/outsider/events", "outsider", nil)))
		servertest.RequireError(t, f.Do(t, "GET", "/users/nobody/events", "outsider", nil), http.StatusNotFound, "message", "404 User Not Found")
	})
	t.Run("GET /events: signed-in callers only; their own events, or their projects' with scope=all", func(t *testing.T) {
		servertest.RequireError(t, f.Do(t, "GET", "/events", "", nil), http.StatusUnauthorized, "message", "401 Unauthorized")
		list := servertest.List(t, f.Do(t, "GET", "/events?sort=asc", "developer", nil))
		assert.Equal(t, []string{"developer pushed new branch topic", "developer pushed to branch topic", "developer deleted branch topic"}, summary(list))
		list = servertest.List(t, f.Do(t, "GET", "/events?sort=asc&scope=all&per_page=100", "developer", nil))
		assert.Equal(t, append(append([]string{}, allFeedEvents...),
			"maintainer created", "maintainer pushed new branch main", "maintainer pushed to branch main"), summary(list))
		// A guest's projects: no pushes of the private one.
		list = servertest.List(t, f.Do(t, "GET", "/events?sort=asc&scope=all", "guest", nil))
		assert.Equal(t, []string{"maintainer created", "outsider joined", "outsider left",
			"maintainer created", "maintainer pushed new branch main", "maintainer pushed to branch main"}, summary(list))
		// The outsider belongs to no project now.
		assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/events?scope=all", "outsider", nil)))
	})
	t.Run("a private profile shows no events but to its owner and administrators", func(t *testing.T) {
		_, err := f.In.DB.Client.User.UpdateOneID(f.Users["maintainer"].ID).SetPrivateProfile(true).Save(context.Background())
		require.NoError(t, err)
		defer f.In.DB.Client.User.UpdateOneID(f.Users["maintainer"].ID).SetPrivateProfile(false).ExecX(context.Background())
		assert.Empty(t, servertest.List(t, f.Do(t, "GET", "/users/maintainer/events", "reporter", nil)))
		assert.Len(t, servertest.List(t, f.Do(t, "GET", "/users/maintainer/events", "maintainer", nil)), 7)
		root := f.In.NewToken(t, f.Root.ID, "api")
		r := f.In.Do(t, "GET", "/users/maintainer/events", root, nil)
		assert.Len(t, servertest.List(t, r), 7)
	})
	t.Run("a read_user token suffices; a read_repository token does not", func(t *testing.T) {
		readUser := f.In.NewToken(t, f.Users["reporter"].ID, "read_user")
		for _, path := range []string{"/events", "/users/maintainer/events", project} {
			assert.Equal(t, http.StatusOK, f.In.Do(t, "GET", path, readUser, nil).Status, path)
		}
		readRepo := f.In.NewToken(t, f.Users["reporter"].ID, "read_repository")
		for _, path := range []string{"/events", "/users/maintainer/events", project} {
			assert.Equal(t, http.StatusForbidden, f.In.Do(t, "GET", path, readRepo, nil).Status, path)
		}
	})
}

func TestEvents_Filters(t *testing.T) {
	d := newFeed(t)
	f := d.f
	project := fmt.Sprintf("/projects/%d/events", d.id)
	get := func(query string) []string {
		t.Helper()
		r := f.Do(t, "GET", project+"?sort=asc&"+query, "reporter", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		return summary(servertest.List(t, r))
	}
	assert.Equal(t, []string{"maintainer created"}, get("action=created"))
	assert.Equal(t, []string{"outsider left"}, get("action=left"))
	assert.Len(t, get("action=pushed"), 6)
	assert.Empty(t, get("target_type=issue"))
	assert.Empty(t, get("target_type=project")) // a project's creation has no target, as in GitLab

	t.Run("before and after are whole days", func(t *testing.T) {
		uid, pid := f.Users["reporter"].ID, d.id
		old := time.Date(2025, 1, 10, 12, 0, 0, 0, time.UTC)
		require.NoError(t, events.Record(context.Background(), f.In.DB.Client,
			events.Entry{Action: event.ActionJoined, AuthorID: uid, ProjectID: &pid, CreatedAt: old},
			events.Entry{Action: event.ActionLeft, AuthorID: uid, ProjectID: &pid, CreatedAt: old.AddDate(0, 0, 1)}))
		assert.Equal(t, []string{"reporter joined"}, get("before=2025-01-11"))
		assert.Equal(t, []string{"reporter joined", "reporter left"}, get("before=2025-01-12"))
		assert.Equal(t, []string{"reporter left"}, get("after=2025-01-10&before=2025-01-12"))
		assert.Empty(t, get("after=2025-01-10&before=2025-01-11"))
		assert.Len(t, get("after=2025-01-11"), len(allFeedEvents))
	})
	t.Run("pages", func(t *testing.T) {
		r := f.Do(t, "GET", project+"?per_page=4&page=2", "reporter", nil)
		require.Equal(t, http.StatusOK, r.Status)
		assert.Len(t, servertest.List(t, r), 4)
		assert.Equal(t, "11", r.Header.Get("X-Total"))
		assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "2", r.Header.Get("X-Page"))
		assert.Equal(t, "3", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
		assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	})
	t.Run("keyset pages are refused, as GitLab's events API pages by offset only", func(t *testing.T) {
		for _, path := range []string{project, "/events", "/users/maintainer/events"} {
			servertest.RequireError(t, f.Do(t, "GET", path+"?pagination=keyset", "reporter", nil), http.StatusMethodNotAllowed,
				"error", "Keyset pagination is not yet available for this type of request")
		}
	})
	t.Run("bad values name the parameter", func(t *testing.T) {
		for query, msg := range map[string]string{
			"sort=up":           "sort does not have a valid value",
			"action=opened":     "action does not have a valid value",
			"target_type=Issue": "target_type does not have a valid value",
			"before=yesterday":  "before is invalid",
			"after=2025-13-45":  "after is invalid",
		} {
			for _, path := range []string{project, "/events", "/users/maintainer/events"} {
				servertest.RequireError(t, f.Do(t, "GET", path+"?"+query, "reporter", nil), http.StatusBadRequest, "error", msg)
			}
		}
	})
}

func TestEvents_ClientGo(t *testing.T) {
	d := newFeed(t)
	gl := d.f.In.Client(t, d.f.Tokens["reporter"])
	pushed := gitlab.EventTypeValue("pushed")

	pe, _, err := gl.Events.ListProjectVisibleEvents(d.id, &gitlab.ListProjectVisibleEventsOptions{Action: &pushed, Sort: gitlab.Ptr("asc")})
	require.NoError(t, err)
	require.Len(t, pe, 6)
	assert.Equal(t, "pushed new", pe[0].ActionName)
	assert.Equal(t, "maintainer", pe[0].AuthorUsername)
	assert.Equal(t, "maintainer", pe[0].Author.Username)
	assert.Equal(t, d.sha["readme"], pe[0].PushData.CommitTo)
	assert.Equal(t, "Initial commit", pe[0].PushData.CommitTitle)
	assert.Equal(t, "deleted", pe[4].ActionName)

	ue, _, err := gl.Users.ListUserContributionEvents("developer", &gitlab.ListContributionEventsOptions{Sort: gitlab.Ptr("asc")})
	require.NoError(t, err)
	require.Len(t, ue, 3)
	assert.Equal(t, "pushed to", ue[1].ActionName)
	assert.Equal(t, int64(d.id), ue[1].ProjectID)
	assert.Equal(t, int64(1), ue[1].PushData.CommitCount)
	assert.Equal(t, "topic", ue[1].PushData.Ref)
	assert.Equal(t, "branch", ue[1].PushData.RefType)

	own, resp, err := d.f.In.Client(t, d.f.Tokens["maintainer"]).Events.ListCurrentUserContributionEvents(
		&gitlab.ListContributionEventsOptions{ListOptions: gitlab.ListOptions{PerPage: 2}})
	require.NoError(t, err)
	require.Len(t, own, 2)
	assert.Equal(t, int64(7), resp.TotalItems)
	assert.Equal(t, "pushed to", own[0].ActionName)
	assert.Equal(t, d.sha["open"], own[0].PushData.CommitTo)
}
