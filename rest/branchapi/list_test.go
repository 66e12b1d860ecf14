package branchapi_test

import (
	"anvil/cmd/anvil/server/servertest"

	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/ent"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// seeded are the commits of a seeded repository:
//
//	c1 ── c2 ── c3          main, release/1.0 (c3); feature, fix-a (c2); a-fix (c1)
//	 │           └── c4     topic
//	 └── c5                 fix
type seeded struct{ c1, c2, c3, c4, c5 git.ObjectID }

func seed(t *testing.T, f *servertest.RepoFixture, p *ent.Project) seeded {
	t.Helper()
	r := f.Repo(t, p)
	var s seeded
	s.c1 = servertest.Commit(t, r, "", "a.txt", 0)
	s.c2 = servertest.Commit(t, r, s.c1, "b.txt", 1)
	s.c3 = servertest.Commit(t, r, s.c2, "c.txt", 2)
	s.c4 = servertest.Commit(t, r, s.c3, "d.txt", 3)
	s.c5 = servertest.Commit(t, r, s.c1, "e.txt", 4)
	for name, id := range map[string]git.ObjectID{
		"main": s.c3, "release/1.0": s.c3, "feature": s.c2, "fix-a": s.c2, "a-fix": s.c1, "topic": s.c4, "fix": s.c5,
	} {
		servertest.SetBranch(t, r, name, id)
	}
	return s
}

func TestBranches_List(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "p", "public")
	s := seed(t, f, p)
	base := fmt.Sprintf("/projects/%d/repository/branches", p.ID)
	web := f.In.URL + "/g/p"

	t.Run("sorted by name with exact fields and page headers", func(t *testing.T) {
		r := f.Do(t, "GET", base, "developer", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		items := servertest.List(t, r)
		assert.Equal(t, []string{"a-fix", "feature", "fix", "fix-a", "main", "release/1.0", "topic"}, servertest.Names(items))
		assert.Equal(t, "7", r.Header.Get("X-Total"))
		assert.Equal(t, "1", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "20", r.Header.Get("X-Per-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Page"))
		assert.Equal(t, "", r.Header.Get("X-Next-Page"))
		date := "2024-03-04T05:07:07.000+02:00"
		assert.Equal(t, map[string]any{
			"name": "feature",
			"commit": map[string]any{
				"id": string(s.c2), "short_id": string(s.c2)[:8], "created_at": date,
				"parent_ids": []any{string(s.c1)}, "title": "change b.txt", "message": "change b.txt\n",
				"author_name": "Alice", "author_email": "alice@example.com", "authored_date": date,
				"committer_name": "Alice", "committer_email": "alice@example.com", "committed_date": date,
				"trailers": map[string]any{}, "extended_trailers": map[string]any{},
				"web_url": web + "/-/commit/" + string(s.c2),
			},
			"merged": true, "protected": false, "developers_can_push": false, "developers_can_merge": false,
			"can_push": true, "default": false, "web_url": web + "/-/tree/feature",
		}, items[1])
		byName := map[string]map[string]any{}
		for _, it := range items {
			byName[it["name"].(string)] = it
		}
		// merged: contained in main without being at main's commit.
		for name, merged := range map[string]bool{"a-fix": true, "feature": true, "fix-a": true, "fix": false,
			"main": false, "release/1.0": false, "topic": false} {
			assert.Equal(t, merged, byName[name]["merged"], name)
		}
		assert.Equal(t, true, byName["main"]["default"])
		assert.Equal(t, web+"/-/tree/release/1.0", byName["release/1.0"]["web_url"])
	})

	t.Run("search", func(t *testing.T) {
		for _, tc := range []struct {
			search string
			want   []string
		}{
			{"fix", []string{"fix", "a-fix", "fix-a"}}, // the exact match first
			{"FIX", []string{"fix", "a-fix", "fix-a"}},
			{"^fix", []string{"fix", "fix-a"}},
			{"fix$", []string{"a-fix", "fix"}},
			{"^fix$", []string{"fix"}},
			{"f*x", []string{"a-fix", "fix", "fix-a"}},
			{"^rel*0$", []string{"release/1.0"}},
			{"nothing", []string{}},
			{"1.0", []string{"release/1.0"}},
		} {
			r := f.Do(t, "GET", base+"?search="+url.QueryEscape(tc.search), "developer", nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			assert.Equal(t, tc.want, servertest.Names(servertest.List(t, r)), tc.search)
			assert.Equal(t, fmt.Sprint(len(tc.want)), r.Header.Get("X-Total"), tc.search)
		}
	})

	t.Run("regex", func(t *testing.T) {
		r := f.Do(t, "GET", base+"?regex="+url.QueryEscape(`^(fix|topic)`), "developer", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []string{"fix", "fix-a", "topic"}, servertest.Names(servertest.List(t, r)))
		r = f.Do(t, "GET", base+"?search=fix&regex="+url.QueryEscape(`-`), "developer", nil)
		assert.Equal(t, []string{"a-fix", "fix-a"}, servertest.Names(servertest.List(t, r)))
		servertest.RequireError(t, f.Do(t, "GET", base+"?regex="+url.QueryEscape("[a-"), "developer", nil), http.StatusBadRequest, "error", "regex is invalid")
		// Perl-only syntax is not RE2.
		servertest.RequireError(t, f.Do(t, "GET", base+"?regex="+url.QueryEscape(`(?=x)`), "developer", nil), http.StatusBadRequest, "error", "regex is invalid")
	})

	t.Run("sort by update", func(t *testing.T) {
		r := f.Do(t, "GET", base+"?sort=updated_desc", "developer", nil)
		assert.Equal(t, []string{"fix", "topic", "main", "release/1.0", "feature", "fix-a", "a-fix"}, servertest.Names(servertest.List(t, r)))
		r = f.Do(t, "GET", base+"?sort=updated_asc&search=fix", "developer", nil)
		assert.Equal(t, []string{"fix", "a-fix", "fix-a"}, servertest.Names(servertest.List(t, r)))
		servertest.RequireError(t, f.Do(t, "GET", base+"?sort=bogus", "developer", nil), http.StatusBadRequest, "error", "sort does not have a valid value")
	})

	t.Run("offset pages", func(t *testing.T) {
		r := f.Do(t, "GET", base+"?per_page=3&page=2", "developer", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []string{"fix-a", "main", "release/1.0"}, servertest.Names(servertest.List(t, r)))
		assert.Equal(t, "7", r.Header.Get("X-Total"))
		assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "3", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
		assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
		r = f.Do(t, "GET", base+"?per_page=3&page=9", "developer", nil)
		assert.Equal(t, "[]", string(r.Body))
	})

	t.Run("keyset pages", func(t *testing.T) {
		var got []string
		next := base + "?pagination=keyset&per_page=3"
		for i := 0; next != ""; i++ {
			require.Less(t, i, 5)
			r := f.Do(t, "GET", next, "developer", nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			got = append(got, servertest.Names(servertest.List(t, r))...)
			assert.Empty(t, r.Header.Get("X-Total"))
			next = ""
			if link := r.Header.Get("Link"); link != "" {
				u := strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
				next = strings.TrimPrefix(u, f.In.URL+"/api/v4")
			}
		}
		assert.Equal(t, []string{"a-fix", "feature", "fix", "fix-a", "main", "release/1.0", "topic"}, got)
		r := f.Do(t, "GET", base+"?pagination=keyset&page_token=nope", "developer", nil)
		servertest.RequireError(t, r, http.StatusUnprocessableEntity, "message", "Invalid page token: refs/heads/nope")
	})

	t.Run("client-go", func(t *testing.T) {
		bs, resp, err := f.In.Client(t, f.Tokens["developer"]).Branches.ListBranches(p.ID, &gitlab.ListBranchesOptions{
			Search: gitlab.Ptr("fix"), ListOptions: gitlab.ListOptions{PerPage: 2},
		})
		require.NoError(t, err)
		require.Len(t, bs, 2)
		assert.Equal(t, "fix", bs[0].Name)
		assert.Equal(t, string(s.c5), bs[0].Commit.ID)
		assert.Equal(t, int64(3), resp.TotalItems)
		assert.Equal(t, int64(2), resp.NextPage)
		bs, _, err = f.In.Client(t, "").Branches.ListBranches(fmt.Sprint(p.ID), &gitlab.ListBranchesOptions{Regex: gitlab.Ptr("^main$")})
		require.NoError(t, err)
		require.Len(t, bs, 1)
		assert.True(t, bs[0].Default)
		assert.False(t, bs[0].CanPush)
	})
}

func TestBranches_Access(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	pub := f.Project(t, "pub", "public")
	seed(t, f, pub)
	priv := f.Project(t, "priv", "private")
	seed(t, f, priv)
	// Maintainers only on main; release/* lets Developers push and merge.
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", pub.ID), "maintainer",
		`{"name":"main"}`).Status)
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/projects/%d/protected_branches", pub.ID), "maintainer",
		`{"name":"release/*","push_access_level":30,"merge_access_level":30}`).Status)

	flags := func(t *testing.T, project *ent.Project, role, branch string) map[string]any {
		t.Helper()
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/%s", project.ID, servertest.Esc(branch)), role, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		o := servertest.Object(t, r)
		return map[string]any{"protected": o["protected"], "developers_can_push": o["developers_can_push"],
			"developers_can_merge": o["developers_can_merge"], "can_push": o["can_push"]}
	}
	flag := func(protected, devPush, devMerge, canPush bool) map[string]any {
		return map[string]any{"protected": protected, "developers_can_push": devPush, "developers_can_merge": devMerge, "can_push": canPush}
	}

	t.Run("can_push and protection flags per role", func(t *testing.T) {
		for _, tc := range []struct {
			role, branch string
			want         map[string]any
		}{
			{"", "topic", flag(false, false, false, false)},
			{"outsider", "topic", flag(false, false, false, false)},
			{"reporter", "topic", flag(false, false, false, false)},
			{"developer", "topic", flag(false, false, false, true)},
			{"developer", "main", flag(true, false, false, false)},
			{"maintainer", "main", flag(true, false, false, true)},
			{"reporter", "release/1.0", flag(true, true, true, false)},
			{"developer", "release/1.0", flag(true, true, true, true)},
		} {
			assert.Equal(t, tc.want, flags(t, pub, tc.role, tc.branch), "%s %s", tc.role, tc.branch)
		}
		// The list computes the same flags.
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches?search=main", pub.ID), "developer", nil)
		items := servertest.List(t, r)
		require.Len(t, items, 1)
		assert.Equal(t, true, items[0]["protected"])
		assert.Equal(t, false, items[0]["can_push"])
	})

	t.Run("public repositories are readable anonymously", func(t *testing.T) {
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches", pub.ID), "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Len(t, servertest.List(t, r), 7)
		r = f.Do(t, "GET", "/projects/g%2Fpub/repository/branches/main", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
	})

	t.Run("private repositories", func(t *testing.T) {
		for _, tc := range []struct {
			role   string
			status int
			body   string
		}{
			{"", http.StatusNotFound, `{"message":"404 Project Not Found"}`},
			{"outsider", http.StatusNotFound, `{"message":"404 Project Not Found"}`},
			{"guest", http.StatusForbidden, `{"message":"403 Forbidden"}`},
			{"reporter", http.StatusOK, ""},
		} {
			for _, path := range []string{"", "/main"} {
				r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches%s", priv.ID, path), tc.role, nil)
				require.Equal(t, tc.status, r.Status, "%s %s: %s", tc.role, path, r.String())
				if tc.body != "" {
					assert.JSONEq(t, tc.body, string(r.Body))
				}
			}
		}
	})

	t.Run("disabled repository", func(t *testing.T) {
		require.Equal(t, http.StatusOK, f.Do(t, "PUT", fmt.Sprintf("/projects/%d", priv.ID), "maintainer",
			`{"repository_access_level":"disabled"}`).Status)
		r := f.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches", priv.ID), "reporter", nil)
		servertest.RequireError(t, r, http.StatusNotFound, "message", "404 Repository Not Found")
	})
}
