package projectapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// starWorld is a public group with a public and a private project, and three users.
type starWorld struct {
	in                   *servertest.Instance
	pub, priv, other     *ent.Project
	alice, bob, carol    *ent.User
	aliceT, bobT, carolT string
}

func newStarWorld(t *testing.T) *starWorld {
	t.Helper()
	in := servertest.Start(t)
	w := &starWorld{in: in}
	w.alice, w.aliceT = in.NewUser(t, "alice")
	w.bob, w.bobT = in.NewUser(t, "bob")
	w.carol, w.carolT = in.NewUser(t, "carol")
	g := in.NewGroup(t, "stars", "public", nil)
	w.pub = in.NewProject(t, g, "pub", "public")
	w.priv = in.NewProject(t, g, "priv", "private")
	w.other = in.NewProject(t, g, "other", "public")
	in.AddProjectMember(t, w.priv, w.alice, 30)
	return w
}

func (w *starWorld) starCount(t *testing.T, p *ent.Project) float64 {
	t.Helper()
	r := w.in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	return servertest.Decode[map[string]any](t, r)["star_count"].(float64)
}

func TestStars_starAndUnstar(t *testing.T) {
	w := newStarWorld(t)
	in := w.in
	path := fmt.Sprintf("/projects/%d", w.pub.ID)
	before, err := in.DB.Client.Project.Get(context.Background(), w.pub.ID)
	require.NoError(t, err)

	r := in.Do(t, "POST", path+"/star", w.aliceT, nil)
	require.Equal(t, 201, r.Status, r.String())
	body := servertest.Decode[map[string]any](t, r)
	assert.Equal(t, float64(1), body["star_count"])
	assert.Equal(t, float64(w.pub.ID), body["id"])
	assert.NotContains(t, body, "permissions", "the Project entity, as GitLab answers a star")

	// A second star changes nothing: 304 with no body.
	r = in.Do(t, "POST", path+"/star", w.aliceT, nil)
	assert.Equal(t, 304, r.Status)
	assert.Empty(t, r.Body)

	r = in.Do(t, "POST", path+"/star", w.bobT, nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, float64(2), w.starCount(t, w.pub))

	// A star is no change to the project: updated_at stays.
	after, err := in.DB.Client.Project.Get(context.Background(), w.pub.ID)
	require.NoError(t, err)
	assert.True(t, before.UpdatedAt.Equal(after.UpdatedAt), "%v != %v", before.UpdatedAt, after.UpdatedAt)

	r = in.Do(t, "POST", path+"/unstar", w.aliceT, nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, float64(1), servertest.Decode[map[string]any](t, r)["star_count"])
	r = in.Do(t, "POST", path+"/unstar", w.aliceT, nil)
	assert.Equal(t, 304, r.Status)
	assert.Empty(t, r.Body)
	assert.Equal(t, float64(1), w.starCount(t, w.pub))

	t.Run("refusals", func(t *testing.T) {
		servertest.RequireError(t, in.Do(t, "POST", path+"/star", "", nil), 401, "message", "401 Unauthorized")
		priv := fmt.Sprintf("/projects/%d", w.priv.ID)
		servertest.RequireError(t, in.Do(t, "POST", priv+"/star", w.bobT, nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, in.Do(t, "POST", priv+"/unstar", w.bobT, nil), 404, "message", "404 Project Not Found")
		servertest.RequireError(t, in.Do(t, "POST", "/projects/999999/star", w.bobT, nil), 404, "message", "404 Project Not Found")
		// A member of the private project may star it.
		require.Equal(t, 201, in.Do(t, "POST", priv+"/star", w.aliceT, nil).Status)
	})
}

func TestStars_starrers(t *testing.T) {
	w := newStarWorld(t)
	in := w.in
	path := fmt.Sprintf("/projects/%d", w.pub.ID)
	for _, tok := range []string{w.carolT, w.aliceT, w.bobT} {
		require.Equal(t, 201, in.Do(t, "POST", path+"/star", tok, nil).Status)
	}
	usernames := func(t *testing.T, r *servertest.Response) []string {
		t.Helper()
		require.Equal(t, 200, r.Status, r.String())
		var out []string
		for _, s := range servertest.Decode[[]map[string]any](t, r) {
			out = append(out, s["user"].(map[string]any)["username"].(string))
		}
		return out
	}
	// Oldest star first, to anyone who may read the project, anonymous callers included.
	r := in.Do(t, "GET", path+"/starrers", "", nil)
	assert.Equal(t, []string{"carol", "alice", "bob"}, usernames(t, r))
	assert.Equal(t, "3", r.Header.Get("X-Total"))

	first := servertest.Decode[[]map[string]any](t, r)[0]
	assert.Equal(t, []string{"starred_since", "user"}, servertest.Keys(first))
	since, err := time.Parse(time.RFC3339Nano, first["starred_since"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), since, time.Minute)
	assert.Equal(t, map[string]any{
		"id": float64(w.carol.ID), "username": "carol", "name": "User carol", "state": "active", "locked": false,
		"avatar_url": first["user"].(map[string]any)["avatar_url"], "web_url": in.URL + "/carol",
	}, first["user"])

	assert.Equal(t, []string{"alice"}, usernames(t, in.Do(t, "GET", path+"/starrers?search=ali", "", nil)))
	assert.Equal(t, []string{"bob"}, usernames(t, in.Do(t, "GET", path+"/starrers?per_page=1&page=3", "", nil)))

	// A private profile is shown to its owner and administrators only.
	require.NoError(t, in.DB.Client.User.UpdateOne(w.alice).SetPrivateProfile(true).Exec(context.Background()))
	assert.Equal(t, []string{"carol", "bob"}, usernames(t, in.Do(t, "GET", path+"/starrers", w.bobT, nil)))
	assert.Equal(t, []string{"carol", "alice", "bob"}, usernames(t, in.Do(t, "GET", path+"/starrers", w.aliceT, nil)))
	assert.Equal(t, []string{"carol", "alice", "bob"}, usernames(t, in.Do(t, "GET", path+"/starrers", servertest.RootToken, nil)))

	servertest.RequireError(t, in.Do(t, "GET", fmt.Sprintf("/projects/%d/starrers", w.priv.ID), w.bobT, nil), 404, "message", "404 Project Not Found")
}

func TestStars_listings(t *testing.T) {
	w := newStarWorld(t)
	in := w.in
	star := func(p *ent.Project, tok string) {
		t.Helper()
		require.Equal(t, 201, in.Do(t, "POST", fmt.Sprintf("/projects/%d/star", p.ID), tok, nil).Status)
	}
	star(w.pub, w.aliceT)
	star(w.priv, w.aliceT)
	star(w.pub, w.bobT)
	star(w.other, w.carolT)
	star(w.pub, w.carolT)

	assert.ElementsMatch(t, []int{w.pub.ID, w.priv.ID}, ids(t, in.Do(t, "GET", "/projects?starred=true", w.aliceT, nil)))
	assert.Equal(t, []int{w.pub.ID}, ids(t, in.Do(t, "GET", "/projects?starred=true", w.bobT, nil)))
	assert.Empty(t, ids(t, in.Do(t, "GET", "/projects?starred=true", "", nil)))
	// star_count orders, ties broken by id in the same direction.
	assert.Equal(t, []int{w.pub.ID, w.other.ID, w.priv.ID},
		ids(t, in.Do(t, "GET", "/projects?order_by=star_count", servertest.RootToken, nil)))
	assert.Equal(t, []int{w.priv.ID, w.other.ID, w.pub.ID},
		ids(t, in.Do(t, "GET", "/projects?order_by=star_count&sort=asc", servertest.RootToken, nil)))

	t.Run("starred_projects of a user", func(t *testing.T) {
		path := fmt.Sprintf("/users/%d/starred_projects", w.alice.ID)
		// Only what the caller may see: bob cannot see the private project alice starred.
		assert.Equal(t, []int{w.pub.ID}, ids(t, in.Do(t, "GET", path, w.bobT, nil)))
		assert.ElementsMatch(t, []int{w.pub.ID, w.priv.ID}, ids(t, in.Do(t, "GET", "/users/alice/starred_projects", w.aliceT, nil)))
		assert.Equal(t, []int{w.pub.ID}, ids(t, in.Do(t, "GET", path+"?simple=true", "", nil)))
		servertest.RequireError(t, in.Do(t, "GET", "/users/nobody/starred_projects", w.bobT, nil), 404, "message", "404 User Not Found")
		// A private profile hides the stars from everyone but its owner and administrators.
		require.NoError(t, in.DB.Client.User.UpdateOne(w.alice).SetPrivateProfile(true).Exec(context.Background()))
		assert.Empty(t, ids(t, in.Do(t, "GET", path, w.bobT, nil)))
		assert.Len(t, ids(t, in.Do(t, "GET", path, w.aliceT, nil)), 2)
		assert.Len(t, ids(t, in.Do(t, "GET", path, servertest.RootToken, nil)), 2)
	})

	t.Run("a deleted user's stars go", func(t *testing.T) {
		r := in.Do(t, "DELETE", fmt.Sprintf("/users/%d", w.carol.ID), servertest.RootToken, nil)
		require.Equal(t, 204, r.Status, r.String())
		assert.Equal(t, float64(2), w.starCount(t, w.pub))
		assert.Equal(t, float64(0), w.starCount(t, w.other))
	})
}

func TestStars_clientGo(t *testing.T) {
	w := newStarWorld(t)
	gl := w.in.Client(t, w.bobT)
	p, resp, err := gl.Projects.StarProject(w.pub.ID)
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, int64(1), p.StarCount)
	// 304 carries no body (GitLab's Rack drops it too), which client-go reports as io.EOF.
	_, resp, _ = gl.Projects.StarProject(w.pub.ID)
	require.NotNil(t, resp)
	assert.Equal(t, 304, resp.StatusCode)

	starrers, _, err := gl.Projects.ListProjectStarrers("stars/pub", &gitlab.ListProjectStarrersOptions{})
	require.NoError(t, err)
	require.Len(t, starrers, 1)
	assert.Equal(t, "bob", starrers[0].User.Username)

	starred, _, err := gl.Projects.ListUserStarredProjects(w.bob.ID, &gitlab.ListProjectsOptions{})
	require.NoError(t, err)
	require.Len(t, starred, 1)
	assert.Equal(t, "stars/pub", starred[0].PathWithNamespace)

	p, _, err = gl.Projects.UnstarProject(w.pub.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(0), p.StarCount)
}
