package projectapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// listWorld has projects with distinct attributes to filter on.
type listWorld struct {
	in                  *servertest.Instance
	carol, dave         *ent.User
	carolTok, daveTok   string
	alpha, beta, gamma  *ent.Project // carol's personal projects
	team, teamSub, ext  *ent.Project // in group "team" (carol Maintainer), its subgroup, and a public one elsewhere
	teamGroup, subGroup *ent.Namespace
}

func newListWorld(t *testing.T) *listWorld {
	in := servertest.Start(t)
	w := &listWorld{in: in}
	w.carol, w.carolTok = in.NewUser(t, "carol")
	w.dave, w.daveTok = in.NewUser(t, "dave")
	ctx := t.Context()
	mk := func(ns *ent.Namespace, path, vis string, upd func(*ent.ProjectUpdateOne)) *ent.Project {
		p := in.NewProject(t, ns, path, vis)
		u := in.DB.Client.Project.UpdateOne(p)
		if upd != nil {
			upd(u)
		}
		p, err := u.Save(ctx)
		require.NoError(t, err)
		return p
	}
	home := in.PersonalNamespace(t, w.carol)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	w.alpha = mk(home, "alpha", "private", func(u *ent.ProjectUpdateOne) {
		u.SetName("Alpha Engine").SetDescription("rocket science").SetTopics([]string{"go", "space"}).SetLastActivityAt(base)
	})
	w.beta = mk(home, "beta", "internal", func(u *ent.ProjectUpdateOne) {
		u.SetArchived(true).SetTopics([]string{"go"}).SetIssuesAccessLevel("disabled").SetLastActivityAt(base.Add(48 * time.Hour))
	})
	w.gamma = mk(home, "gamma", "public", func(u *ent.ProjectUpdateOne) {
		u.SetMergeRequestsAccessLevel("disabled").SetIssuesAccessLevel("private").SetLastActivityAt(base.Add(96 * time.Hour))
	})
	w.teamGroup = in.NewGroup(t, "team", "private", nil)
	w.subGroup = in.NewGroup(t, "squad", "private", w.teamGroup)
	in.AddGroupMember(t, w.teamGroup, w.carol, 40)
	w.team = mk(w.teamGroup, "tool", "private", nil)
	w.teamSub = mk(w.subGroup, "widget", "private", nil)
	other := in.NewGroup(t, "elsewhere", "public", nil)
	w.ext = mk(other, "ext", "public", nil)
	return w
}

func TestProjects_list_filters(t *testing.T) {
	w := newListWorld(t)
	in := w.in
	for _, tc := range []struct {
		desc, query, token string
		want               []*ent.Project
	}{
		{"default order is created_at desc", "", w.carolTok, []*ent.Project{w.ext, w.teamSub, w.team, w.gamma, w.beta, w.alpha}},
		{"sort asc", "sort=asc", w.carolTok, []*ent.Project{w.alpha, w.beta, w.gamma, w.team, w.teamSub, w.ext}},
		{"order by name asc", "order_by=name&sort=asc", w.carolTok, []*ent.Project{w.alpha, w.beta, w.ext, w.gamma, w.team, w.teamSub}},
		{"order by path desc", "order_by=path", w.carolTok, []*ent.Project{w.teamSub, w.team, w.gamma, w.ext, w.beta, w.alpha}},
		{"order by last_activity_at asc", "order_by=last_activity_at&sort=asc&owned=true", w.carolTok, []*ent.Project{w.alpha, w.beta, w.gamma}},
		{"owned", "owned=true", w.carolTok, []*ent.Project{w.gamma, w.beta, w.alpha}},
		{"membership", "membership=true", w.carolTok, []*ent.Project{w.teamSub, w.team, w.gamma, w.beta, w.alpha}},
		{"min_access_level 50", "min_access_level=50", w.carolTok, []*ent.Project{w.gamma, w.beta, w.alpha}},
		{"min_access_level 40", "min_access_level=40", w.carolTok, []*ent.Project{w.teamSub, w.team, w.gamma, w.beta, w.alpha}},
		{"visibility", "visibility=public", w.carolTok, []*ent.Project{w.ext, w.gamma}},
		{"archived true", "archived=true", w.carolTok, []*ent.Project{w.beta}},
		{"archived false", "archived=false&owned=true", w.carolTok, []*ent.Project{w.gamma, w.alpha}},
		{"active", "active=true&owned=true", w.carolTok, []*ent.Project{w.gamma, w.alpha}},
		{"search name", "search=engine", w.carolTok, []*ent.Project{w.alpha}},
		{"search description", "search=ROCKET", w.carolTok, []*ent.Project{w.alpha}},
		{"search words all match one column", "search=rocket+science", w.carolTok, []*ent.Project{w.alpha}},
		{"search words split over columns", "search=alpha+rocket", w.carolTok, nil},
		{"search short is exact", "search=ex", w.carolTok, nil},
		{"search short exact hit", "search=ext", w.carolTok, []*ent.Project{w.ext}},
		{"search namespaces", "search=squad&search_namespaces=true", w.carolTok, []*ent.Project{w.teamSub}},
		{"search without namespaces", "search=squad", w.carolTok, nil},
		{"topic", "topic=go", w.carolTok, []*ent.Project{w.beta, w.alpha}},
		{"topics all", "topic=go,space", w.carolTok, []*ent.Project{w.alpha}},
		{"starred", "starred=true", w.carolTok, nil},
		{"with_issues_enabled", "with_issues_enabled=true&owned=true", w.carolTok, []*ent.Project{w.gamma, w.alpha}},
		{"with_issues_enabled for a stranger", "with_issues_enabled=true", w.daveTok, []*ent.Project{w.ext}},
		{"with_merge_requests_enabled", "with_merge_requests_enabled=true&owned=true", w.carolTok, []*ent.Project{w.beta, w.alpha}},
		{"id_after", fmt.Sprintf("id_after=%d&sort=asc", w.team.ID), w.carolTok, []*ent.Project{w.teamSub, w.ext}},
		{"id_before", fmt.Sprintf("id_before=%d", w.beta.ID), w.carolTok, []*ent.Project{w.alpha}},
		{"last_activity_after", "last_activity_after=2024-01-02T00:00:00Z&owned=true", w.carolTok, []*ent.Project{w.gamma, w.beta}},
		{"last_activity_before", "last_activity_before=2024-01-02T00:00:00Z&owned=true", w.carolTok, []*ent.Project{w.alpha}},
		{"similarity is members only", "search=a&order_by=similarity", w.carolTok, nil},
		{"similarity ranks exact first", "search=tool&order_by=similarity", w.carolTok, []*ent.Project{w.team}},
		{"stranger sees public and internal", "", w.daveTok, []*ent.Project{w.ext, w.gamma, w.beta}},
		{"anonymous sees public", "", "", []*ent.Project{w.ext, w.gamma}},
		{"anonymous owned is empty", "owned=true", "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			want := []int{}
			for _, p := range tc.want {
				want = append(want, p.ID)
			}
			got := ids(t, in.Do(t, "GET", "/projects?"+tc.query, tc.token, nil))
			assert.Equal(t, want, append([]int{}, got...))
		})
	}
	t.Run("similarity orders exact, prefix, substring", func(t *testing.T) {
		for _, path := range []string{"xtoolbox", "tool-kit", "toolx"} {
			p := in.NewProject(t, w.teamGroup, path, "private")
			_ = p
		}
		r := in.Do(t, "GET", "/projects?search=tool&order_by=similarity", w.carolTok, nil)
		var paths []string
		for _, row := range servertest.Decode[[]map[string]any](t, r) {
			paths = append(paths, row["path"].(string))
		}
		assert.Equal(t, "tool", paths[0])
		assert.Equal(t, "xtoolbox", paths[len(paths)-1])
	})
}

func TestProjects_list_badInput(t *testing.T) {
	in := servertest.Start(t)
	for _, tc := range []struct {
		query  string
		status int
		want   string
	}{
		{"visibility=secret", 400, `{"error":"visibility does not have a valid value"}`},
		{"per_page=abc", 400, `{"error":"per_page is invalid"}`},
		{"page=x", 400, `{"error":"page is invalid"}`},
		{"per_page=0", 400, `{"error":"per_page does not have a valid value"}`},
		{"order_by=stars", 400, `{"error":"order_by does not have a valid value"}`},
		{"sort=up", 400, `{"error":"sort does not have a valid value"}`},
		{"archived=perhaps", 400, `{"error":"archived is invalid"}`},
		{"min_access_level=35", 400, `{"error":"min_access_level does not have a valid value"}`},
		{"id_after=x", 400, `{"error":"id_after is invalid"}`},
		{"last_activity_after=yesterday", 400, `{"error":"last_activity_after is invalid"}`},
		{"updated_after=2024-01-01T00:00:00Z&order_by=name", 400, `{"message":"400 Bad request - ` + "`updated_at` filter and `updated_at` sorting must be paired" + `"}`},
		{"pagination=keyset&order_by=name", 405, `{"error":"Keyset pagination is not yet available for this type of request"}`},
		{"pagination=keyset", 405, `{"error":"Keyset pagination is not yet available for this type of request"}`},
		{"page=2501&per_page=20", 405, `{"error":"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination."}`},
		{"page=2500&per_page=20", 200, `[]`},
		{"per_page=60000", 405, `{"error":"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination."}`},
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := in.Do(t, "GET", "/projects?"+tc.query, servertest.RootToken, nil)
			assert.Equal(t, tc.status, r.Status)
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
}

func TestProjects_list_pagination(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "pages", "public", nil)
	var all []int
	for i := 1; i <= 5; i++ {
		all = append(all, in.NewProject(t, g, fmt.Sprintf("p%d", i), "public").ID)
	}
	t.Run("offset headers", func(t *testing.T) {
		r := in.Do(t, "GET", "/projects?per_page=2&page=2&order_by=id&sort=asc", "", nil)
		assert.Equal(t, all[2:4], ids(t, r))
		h := r.Header
		assert.Equal(t, "5", h.Get("X-Total"))
		assert.Equal(t, "3", h.Get("X-Total-Pages"))
		assert.Equal(t, "2", h.Get("X-Per-Page"))
		assert.Equal(t, "2", h.Get("X-Page"))
		assert.Equal(t, "3", h.Get("X-Next-Page"))
		assert.Equal(t, "1", h.Get("X-Prev-Page"))
		base := in.URL + "/api/v4/projects?order_by=id&page=%d&per_page=2&sort=asc"
		assert.Equal(t, fmt.Sprintf(`<`+base+`>; rel="prev", <`+base+`>; rel="next", <`+base+`>; rel="first", <`+base+`>; rel="last"`, 1, 3, 1, 3), h.Get("Link"))
		r = in.Do(t, "GET", "/projects?per_page=2&page=3", "", nil)
		assert.Equal(t, "", r.Header.Get("X-Next-Page"))
		assert.Len(t, ids(t, r), 1)
		r = in.Do(t, "GET", "/projects?per_page=500", "", nil)
		assert.Equal(t, "100", r.Header.Get("X-Per-Page"), "per_page is clamped to 100")
	})
	t.Run("client-go walks the pages", func(t *testing.T) {
		var got []int
		opt := &gitlab.ListProjectsOptions{ListOptions: gitlab.ListOptions{PerPage: 2}, OrderBy: gitlab.Ptr("id"), Sort: gitlab.Ptr("asc")}
		for {
			ps, resp, err := in.Client(t, "").Projects.ListProjects(opt)
			require.NoError(t, err)
			for _, p := range ps {
				got = append(got, int(p.ID))
			}
			if resp.NextPage == 0 {
				break
			}
			opt.Page = resp.NextPage
		}
		assert.Equal(t, all, got)
	})
	for _, sort := range []string{"asc", "desc"} {
		t.Run("keyset "+sort, func(t *testing.T) {
			want := append([]int{}, all...)
			cursor := "id_after"
			if sort == "desc" {
				for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
					want[i], want[j] = want[j], want[i]
				}
				cursor = "id_before"
			}
			var got []int
			next := "/projects?pagination=keyset&order_by=id&per_page=2&sort=" + sort
			for pages := 0; next != "" && pages < 5; pages++ {
				r := in.Do(t, "GET", next, "", nil)
				got = append(got, ids(t, r)...)
				assert.Empty(t, r.Header.Get("X-Total"), "keyset pages are not counted")
				next = ""
				if link := r.Header.Get("Link"); link != "" {
					require.Regexp(t, `^<[^>]+>; rel="next"$`, link)
					u, err := url.Parse(link[1 : len(link)-len(`>; rel="next"`)])
					require.NoError(t, err)
					assert.NotEmpty(t, u.Query().Get(cursor))
					next = u.String()
				}
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestProjects_userAndGroupListings(t *testing.T) {
	w := newListWorld(t)
	in := w.in
	toIDs := func(ps ...*ent.Project) []int {
		out := []int{}
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	for _, tc := range []struct {
		desc, path, token string
		status            int
		want              []int
	}{
		{"user projects as the owner", fmt.Sprintf("/users/%d/projects", w.carol.ID), w.carolTok, 200, toIDs(w.gamma, w.beta, w.alpha)},
		{"user projects by username", "/users/carol/projects", w.daveTok, 200, toIDs(w.gamma, w.beta)},
		{"user projects anonymously", "/users/carol/projects", "", 200, toIDs(w.gamma)},
		{"user projects with a filter", "/users/carol/projects?visibility=internal", w.daveTok, 200, toIDs(w.beta)},
		{"unknown user", "/users/nobody/projects", w.carolTok, 404, nil},
		{"group projects", "/groups/team/projects", w.carolTok, 200, toIDs(w.team)},
		{"group projects with subgroups", "/groups/team/projects?include_subgroups=true", w.carolTok, 200, toIDs(w.teamSub, w.team)},
		{"subgroup projects with ancestors", "/groups/team%2Fsquad/projects?include_ancestor_groups=true", w.carolTok, 200, toIDs(w.teamSub, w.team)},
		{"invisible group", "/groups/team/projects", w.daveTok, 404, nil},
		{"invisible group anonymously", "/groups/team/projects", "", 404, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", tc.path, tc.token, nil)
			require.Equal(t, tc.status, r.Status, r.String())
			if tc.status == 404 {
				if tc.want == nil && tc.path[:7] == "/groups" {
					assert.JSONEq(t, `{"message":"404 Group Not Found"}`, string(r.Body))
				} else {
					assert.JSONEq(t, `{"message":"404 User Not Found"}`, string(r.Body))
				}
				return
			}
			assert.Equal(t, tc.want, ids(t, r))
		})
	}
	t.Run("group projects include shared ones unless with_shared=false", func(t *testing.T) {
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", w.gamma.ID), w.carolTok, fmt.Sprintf(`{"group_id":%d,"group_access":20}`, w.teamGroup.ID))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, toIDs(w.team, w.gamma), ids(t, in.Do(t, "GET", "/groups/team/projects", w.carolTok, nil)))
		assert.Equal(t, toIDs(w.team), ids(t, in.Do(t, "GET", "/groups/team/projects?with_shared=false", w.carolTok, nil)))
		assert.Equal(t, toIDs(w.gamma), ids(t, in.Do(t, "GET", "/groups/team/projects/shared", w.carolTok, nil)))
		ps, _, err := in.Client(t, w.carolTok).Groups.ListGroupProjects("team", &gitlab.ListGroupProjectsOptions{
			IncludeSubGroups: gitlab.Ptr(true), WithShared: gitlab.Ptr(false), OrderBy: gitlab.Ptr("path"), Sort: gitlab.Ptr("asc")})
		require.NoError(t, err)
		require.Len(t, ps, 2)
		assert.Equal(t, "team/tool", ps[0].PathWithNamespace)
		assert.Equal(t, "team/squad/widget", ps[1].PathWithNamespace)
	})
	t.Run("client-go user projects", func(t *testing.T) {
		ps, _, err := in.Client(t, w.daveTok).Projects.ListUserProjects("carol", &gitlab.ListProjectsOptions{Archived: gitlab.Ptr(true)})
		require.NoError(t, err)
		require.Len(t, ps, 1)
		assert.Equal(t, "carol/beta", ps[0].PathWithNamespace)
		assert.Equal(t, "carol", ps[0].Owner.Username)
	})
}
