package tagapi_test

import (
	"anvil/cmd/anvil/server/servertest"

	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/ent"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// seeded is a history c1 ── c2 ── c3 (main) with tags:
//
//	v1.9    annotated, tagged at minute 10, on c1
//	v1.10   lightweight on c3 (updated = c3's date, minute 2)
//	v1.2    annotated, tagged at minute 5, on c2
//	beta    lightweight on c1 (minute 0)
type seeded struct{ c1, c2, c3, v19, v12 git.ObjectID }

func seed(t *testing.T, f *servertest.RepoFixture, p *ent.Project) seeded {
	t.Helper()
	ctx := context.Background()
	r := f.Repo(t, p)
	var s seeded
	s.c1 = servertest.Commit(t, r, "", "a.txt", 0)
	s.c2 = servertest.Commit(t, r, s.c1, "b.txt", 1)
	s.c3 = servertest.Commit(t, r, s.c2, "c.txt", 2)
	servertest.SetBranch(t, r, "main", s.c3)
	tagger := func(minute int) git.Signature {
		sig := git.Signature{Name: "Tagger", Email: "tagger@example.com", When: servertest.Epoch.Add(time.Duration(minute) * time.Minute)}
		return sig
	}
	var err error
	s.v19, err = r.CreateTag(ctx, git.CreateTagOptions{Name: "v1.9", Target: s.c1, Message: "Release 1.9\n\nNotes.", Tagger: tagger(10)})
	require.NoError(t, err)
	_, err = r.CreateTag(ctx, git.CreateTagOptions{Name: "v1.10", Target: s.c3})
	require.NoError(t, err)
	s.v12, err = r.CreateTag(ctx, git.CreateTagOptions{Name: "v1.2", Target: s.c2, Message: "Release 1.2", Tagger: tagger(5)})
	require.NoError(t, err)
	_, err = r.CreateTag(ctx, git.CreateTagOptions{Name: "beta", Target: s.c1})
	require.NoError(t, err)
	return s
}

func TestTags_List(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	base := fmt.Sprintf("/projects/%d/repository/tags", p.ID)
	web := f.In.URL + "/g/p"

	t.Run("newest first by default, exact fields", func(t *testing.T) {
		r := f.Do(t, "GET", base, "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		items := servertest.List(t, r)
		assert.Equal(t, []string{"v1.9", "v1.2", "v1.10", "beta"}, servertest.Names(items))
		assert.Equal(t, "4", r.Header.Get("X-Total"))
		date := "2024-03-04T05:06:07.000+02:00"
		commit1 := map[string]any{
			"id": string(s.c1), "short_id": string(s.c1)[:8], "created_at": date, "parent_ids": []any{},
			"title": "change a.txt", "message": "change a.txt\n",
			"author_name": "Alice", "author_email": "alice@example.com", "authored_date": date,
			"committer_name": "Alice", "committer_email": "alice@example.com", "committed_date": date,
			"trailers": map[string]any{}, "extended_trailers": map[string]any{},
			"web_url": web + "/-/commit/" + string(s.c1),
		}
		assert.Equal(t, map[string]any{
			"name": "v1.9", "message": "Release 1.9\n\nNotes.", "target": string(s.v19), "commit": commit1,
			"release": nil, "protected": false, "created_at": "2024-03-04T03:16:07.000Z",
		}, items[0])
		assert.Equal(t, map[string]any{
			"name": "beta", "message": nil, "target": string(s.c1), "commit": commit1,
			"release": nil, "protected": false, "created_at": nil,
		}, items[3])
	})

	t.Run("order and search", func(t *testing.T) {
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"order_by=name&sort=asc", []string{"beta", "v1.10", "v1.2", "v1.9"}},
			{"order_by=name", []string{"v1.9", "v1.2", "v1.10", "beta"}},
			{"order_by=version&sort=asc", []string{"beta", "v1.2", "v1.9", "v1.10"}},
			{"order_by=version&sort=desc", []string{"v1.10", "v1.9", "v1.2", "beta"}},
			{"order_by=updated&sort=asc", []string{"beta", "v1.10", "v1.2", "v1.9"}},
			{"search=v1&order_by=name&sort=asc", []string{"v1.10", "v1.2", "v1.9"}},
			{"search=" + url.QueryEscape("^v1.1"), []string{"v1.10"}},
			{"search=" + url.QueryEscape("9$"), []string{"v1.9"}},
			{"search=V1.1", []string{"v1.10"}}, // ignoring case
		} {
			r := f.Do(t, "GET", base+"?"+tc.query, "developer", nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			assert.Equal(t, tc.want, servertest.Names(servertest.List(t, r)), tc.query)
		}
		servertest.RequireError(t, f.Do(t, "GET", base+"?order_by=size", "", nil), http.StatusBadRequest, "error", "order_by does not have a valid value")
		servertest.RequireError(t, f.Do(t, "GET", base+"?sort=up", "", nil), http.StatusBadRequest, "error", "sort does not have a valid value")
	})

	t.Run("pages", func(t *testing.T) {
		r := f.Do(t, "GET", base+"?order_by=name&sort=asc&per_page=3&page=2", "", nil)
		assert.Equal(t, []string{"v1.9"}, servertest.Names(servertest.List(t, r)))
		assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))
		r = f.Do(t, "GET", base+"?order_by=name&sort=asc&per_page=3&pagination=keyset", "", nil)
		assert.Equal(t, []string{"beta", "v1.10", "v1.2"}, servertest.Names(servertest.List(t, r)))
		link := r.Header.Get("Link")
		require.True(t, strings.HasSuffix(link, `>; rel="next"`), link)
		assert.Contains(t, link, "page_token=v1.2")
		next := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`), f.In.URL+"/api/v4")
		r = f.Do(t, "GET", next, "", nil)
		assert.Equal(t, []string{"v1.9"}, servertest.Names(servertest.List(t, r)))
		assert.Empty(t, r.Header.Get("Link"))
	})

	t.Run("client-go", func(t *testing.T) {
		ts, _, err := f.In.Client(t, "").Tags.ListTags(p.ID, &gitlab.ListTagsOptions{OrderBy: gitlab.Ptr("name"), Sort: gitlab.Ptr("asc")})
		require.NoError(t, err)
		require.Len(t, ts, 4)
		assert.Equal(t, "beta", ts[0].Name)
		assert.Nil(t, ts[0].CreatedAt)
		assert.Equal(t, "", ts[0].Message)
		assert.Equal(t, "Release 1.2", ts[2].Message)
		require.NotNil(t, ts[2].CreatedAt)
		assert.True(t, ts[2].CreatedAt.Equal(servertest.Epoch.Add(5*time.Minute)))
		assert.Equal(t, string(s.c2), ts[2].Commit.ID)
	})
}

func TestTags_Access(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	priv := f.Project(t, "priv", "private")
	seed(t, f, priv)
	for _, tc := range []struct {
		role   string
		status int
	}{{"", 404}, {"outsider", 404}, {"guest", 403}, {"reporter", 200}} {
		for _, path := range []string{"", "/v1.9"} {
			r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/tags%s", priv.ID, path), tc.role, nil)
			assert.Equal(t, tc.status, r.Status, "%s %s: %s", tc.role, path, r.String())
		}
	}
}

func TestTags_GetCreateDelete(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	base := fmt.Sprintf("/projects/%d/repository/tags", p.ID)

	t.Run("get", func(t *testing.T) {
		tag, _, err := f.In.Client(t, "").Tags.GetTag(p.ID, "v1.2")
		require.NoError(t, err)
		assert.Equal(t, string(s.v12), tag.Target)
		assert.Equal(t, "Release 1.2", tag.Message)
		servertest.RequireError(t, f.Do(t, "GET", base+"/nope", "", nil), http.StatusNotFound, "message", "404 Tag Not Found")
		servertest.RequireError(t, f.Do(t, "GET", base+"/"+servertest.Esc("--upload-pack=x"), "", nil), http.StatusNotFound, "message", "404 Tag Not Found")
	})

	t.Run("create", func(t *testing.T) {
		c := f.In.Client(t, f.Tokens["developer"])
		tag, resp, err := c.Tags.CreateTag(p.ID, &gitlab.CreateTagOptions{TagName: gitlab.Ptr("v2.0"), Ref: gitlab.Ptr("main"),
			Message: gitlab.Ptr("  Release 2.0\n")})
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, resp.StatusCode)
		assert.Equal(t, "Release 2.0", tag.Message)
		assert.Equal(t, string(s.c3), tag.Commit.ID)
		assert.NotEqual(t, string(s.c3), tag.Target) // the tag object
		require.NotNil(t, tag.CreatedAt)
		assert.WithinDuration(t, time.Now(), *tag.CreatedAt, time.Minute)
		obj, err := f.Repo(t, p).ReadTagObject(context.Background(), git.ObjectID(tag.Target))
		require.NoError(t, err)
		require.NotNil(t, obj.Tagger)
		assert.Equal(t, f.Users["developer"].Name, obj.Tagger.Name)
		assert.Equal(t, f.Users["developer"].Email, obj.Tagger.Email)

		r := f.Do(t, "POST", base, "developer", url.Values{"tag_name": {"light"}, "ref": {string(s.c1)}})
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		o := servertest.Object(t, r)
		assert.Equal(t, string(s.c1), o["target"])
		assert.Nil(t, o["message"])
		assert.Nil(t, o["created_at"])
		// A blank message makes a lightweight tag too.
		r = f.Do(t, "POST", base, "developer", `{"tag_name":"light2","ref":"main","message":"   "}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, string(s.c3), servertest.Object(t, r)["target"])
	})

	t.Run("create refusals", func(t *testing.T) {
		for _, tc := range []struct {
			desc, role, body string
			status           int
			key, msg         string
		}{
			{"existing", "developer", `{"tag_name":"v1.9","ref":"main"}`, 400, "message", "Tag v1.9 already exists"},
			{"invalid name", "developer", `{"tag_name":"a..b","ref":"main"}`, 400, "message", "Tag name invalid"},
			{"option-like name", "developer", `{"tag_name":"--upload-pack=x","ref":"main"}`, 400, "message", "Tag name invalid"},
			{"unknown target", "developer", `{"tag_name":"x","ref":"nope"}`, 400, "message", "Target nope is invalid"},
			{"option-like target", "developer", `{"tag_name":"x","ref":"--all"}`, 400, "message", "Target --all is invalid"},
			{"missing", "developer", `{"message":"m"}`, 400, "error", "tag_name is missing, ref is missing"},
			{"reporter", "reporter", `{"tag_name":"x","ref":"main"}`, 403, "message", "403 Forbidden"},
			{"anonymous", "", `{"tag_name":"x","ref":"main"}`, 401, "message", "401 Unauthorized"},
		} {
			t.Run(tc.desc, func(t *testing.T) {
				servertest.RequireError(t, f.Do(t, "POST", base, tc.role, tc.body), tc.status, tc.key, tc.msg)
			})
		}
	})

	t.Run("delete", func(t *testing.T) {
		servertest.RequireError(t, f.Do(t, "DELETE", base+"/nope", "developer", nil), http.StatusNotFound, "message", "404 Tag Not Found")
		servertest.RequireError(t, f.Do(t, "DELETE", base+"/beta", "reporter", nil), http.StatusForbidden, "message", "403 Forbidden")
		servertest.RequireError(t, f.Do(t, "DELETE", base+"/beta", "", nil), http.StatusUnauthorized, "message", "401 Unauthorized")
		_, err := f.In.Client(t, f.Tokens["developer"]).Tags.DeleteTag(p.ID, "beta")
		require.NoError(t, err)
		r := f.Do(t, "DELETE", base+"/"+servertest.Esc("v1.9"), "developer", nil)
		assert.Equal(t, http.StatusNoContent, r.Status, r.String())
		servertest.RequireError(t, f.Do(t, "GET", base+"/beta", "", nil), http.StatusNotFound, "message", "404 Tag Not Found")
		r = f.Do(t, "GET", base+"?order_by=name&sort=asc", "", nil)
		assert.Equal(t, []string{"light", "light2", "v1.10", "v1.2", "v2.0"}, servertest.Names(servertest.List(t, r)))
	})
}
