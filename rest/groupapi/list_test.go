package groupapi_test

import (
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroups_List(t *testing.T) {
	in := servertest.Start(t)
	alpha := in.NewGroup(t, "alpha", "public", nil)
	beta := in.NewGroup(t, "beta", "public", alpha)
	gamma := in.NewGroup(t, "gamma", "private", beta)
	delta := in.NewGroup(t, "delta", "internal", nil)
	epsilon := in.NewGroup(t, "epsilon", "private", nil)
	zeta := in.NewGroup(t, "zeta", "public", nil)
	_, nobodyTok := in.NewUser(t, "nobody")
	guest, guestTok := in.NewUser(t, "guest")
	in.AddGroupMember(t, gamma, guest, 10)
	boss, bossTok := in.NewUser(t, "boss")
	in.AddGroupMember(t, alpha, boss, 50)
	in.AddGroupMember(t, delta, boss, 30)
	in.AddGroupMember(t, epsilon, boss, 10)
	_, extTok := in.NewUser(t, "ext", servertest.External)
	all := []string{"alpha", "alpha/beta", "delta", "epsilon", "alpha/beta/gamma", "zeta"}

	for _, tc := range []struct {
		desc, token, query string
		want               []string
	}{
		{"anonymous sees public groups", "", "", []string{"alpha", "alpha/beta", "zeta"}},
		{"anonymous ignores all_available=false", "", "?all_available=false", []string{"alpha", "alpha/beta", "zeta"}},
		{"signed-in non-member sees only own groups by default", nobodyTok, "", []string{}},
		{"all_available adds public and internal", nobodyTok, "?all_available=true", []string{"alpha", "alpha/beta", "delta", "zeta"}},
		{"external users do not see internal groups", extTok, "?all_available=true", []string{"alpha", "alpha/beta", "zeta"}},
		{"a member sees the group and its ancestors", guestTok, "", []string{"alpha", "alpha/beta", "alpha/beta/gamma"}},
		{"memberships cover descendants", bossTok, "", []string{"alpha", "alpha/beta", "delta", "epsilon", "alpha/beta/gamma"}},
		{"administrators see everything", servertest.RootToken, "", all},
		{"administrators without all_available see their own", servertest.RootToken, "?all_available=false", []string{}},
		{"owned: direct Owner memberships", bossTok, "?owned=true", []string{"alpha"}},
		{"owned for anonymous is empty", "", "?owned=true", []string{}},
		{"min_access_level", bossTok, "?min_access_level=30", []string{"alpha", "alpha/beta", "delta", "alpha/beta/gamma"}},
		{"min_access_level owner", bossTok, "?min_access_level=50", []string{"alpha", "alpha/beta", "alpha/beta/gamma"}},
		{"top_level_only", servertest.RootToken, "?top_level_only=true", []string{"alpha", "delta", "epsilon", "zeta"}},
		{"visibility", servertest.RootToken, "?visibility=private", []string{"epsilon", "alpha/beta/gamma"}},
		{"skip_groups comma list", servertest.RootToken, "?skip_groups=" + id(alpha) + "," + id(zeta), []string{"alpha/beta", "delta", "epsilon", "alpha/beta/gamma"}},
		{"skip_groups array", servertest.RootToken, "?skip_groups[]=" + id(delta) + "&skip_groups[]=" + id(epsilon), []string{"alpha", "alpha/beta", "alpha/beta/gamma", "zeta"}},
		{"search matches the full path", servertest.RootToken, "?search=ALP", []string{"alpha", "alpha/beta", "alpha/beta/gamma"}},
		{"search words must all match", servertest.RootToken, "?search=alpha%20gam", []string{"alpha/beta/gamma"}},
		{"short search matches exactly", servertest.RootToken, "?search=ze", []string{}},
		{"short search exact name", servertest.RootToken, "?search=%20zeta%20", []string{"zeta"}},
		{"order by path desc", servertest.RootToken, "?order_by=path&sort=desc", []string{"zeta", "alpha/beta/gamma", "epsilon", "delta", "alpha/beta", "alpha"}},
		{"order by id desc", servertest.RootToken, "?order_by=id&sort=desc", []string{"zeta", "epsilon", "delta", "alpha/beta/gamma", "alpha/beta", "alpha"}},
		{"similarity without search is by name", servertest.RootToken, "?order_by=similarity", all},
		{"similarity ranks the exact path first", servertest.RootToken, "?search=beta&order_by=similarity", []string{"alpha/beta", "alpha/beta/gamma"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, paths(t, in.Do(t, "GET", "/groups"+tc.query, tc.token, nil)))
		})
	}

	t.Run("pagination headers", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups?per_page=2&page=2&order_by=id", servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status)
		assert.Equal(t, []string{"alpha/beta/gamma", "delta"}, paths(t, r))
		assert.Equal(t, "6", r.Header.Get("X-Total"))
		assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "2", r.Header.Get("X-Per-Page"))
		assert.Equal(t, "2", r.Header.Get("X-Page"))
		assert.Equal(t, "3", r.Header.Get("X-Next-Page"))
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"))
		base := in.URL + "/api/v4/groups?order_by=id&page="
		assert.Equal(t, "<"+base+`1&per_page=2>; rel="prev", <`+base+`3&per_page=2>; rel="next", <`+base+`1&per_page=2>; rel="first", <`+base+`3&per_page=2>; rel="last"`, r.Header.Get("Link"))
		r = in.Do(t, "GET", "/groups", nobodyTok, nil)
		assert.Equal(t, "0", r.Header.Get("X-Total"))
		assert.Equal(t, "1", r.Header.Get("X-Total-Pages"))
		assert.Equal(t, "", r.Header.Get("X-Next-Page"))
	})

	t.Run("statistics for administrators only", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups?statistics=true&search=alpha&top_level_only=true", servertest.RootToken, nil)
		list := servertest.Decode[[]map[string]any](t, r)
		require.Len(t, list, 1)
		assert.Equal(t, map[string]any{
			"storage_size": 0.0, "repository_size": 0.0, "wiki_size": 0.0, "lfs_objects_size": 0.0,
			"job_artifacts_size": 0.0, "pipeline_artifacts_size": 0.0, "packages_size": 0.0, "snippets_size": 0.0,
			"uploads_size": 0.0,
		}, list[0]["statistics"])
		assert.Contains(t, list[0], "root_storage_statistics")
		assert.Nil(t, list[0]["root_storage_statistics"])
		r = in.Do(t, "GET", "/groups?statistics=true", bossTok, nil)
		assert.NotContains(t, servertest.Decode[[]map[string]any](t, r)[0], "statistics")
	})

	t.Run("list items are the Group shape", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups?search=gamma", guestTok, nil)
		list := servertest.Decode[[]map[string]any](t, r)
		require.Len(t, list, 1)
		assert.Equal(t, "alpha / beta / gamma", list[0]["full_name"])
		for _, k := range []string{"shared_with_groups", "runners_token", "projects", "custom_attributes", "statistics"} {
			assert.NotContains(t, list[0], k)
		}
		r = in.Do(t, "GET", "/groups?with_custom_attributes=true&search=zeta", servertest.RootToken, nil)
		assert.Equal(t, []any{}, servertest.Decode[[]map[string]any](t, r)[0]["custom_attributes"])
	})

	t.Run("client-go", func(t *testing.T) {
		gs, resp, err := in.Client(t, bossTok).Groups.ListGroups(&gitlab.ListGroupsOptions{
			MinAccessLevel: gitlab.Ptr(gitlab.DeveloperPermissions), TopLevelOnly: gitlab.Ptr(true),
			SkipGroups: &[]int64{int64(alpha.ID)},
		})
		require.NoError(t, err)
		require.Len(t, gs, 1)
		assert.Equal(t, "delta", gs[0].FullPath)
		assert.Equal(t, int64(1), resp.TotalItems)
	})

	t.Run("bad parameters", func(t *testing.T) {
		for _, tc := range []struct{ query, want string }{
			{"?order_by=stars", `{"error":"order_by does not have a valid value"}`},
			{"?sort=up", `{"error":"sort does not have a valid value"}`},
			{"?min_access_level=7", `{"error":"min_access_level does not have a valid value"}`},
			{"?visibility=secret", `{"error":"visibility does not have a valid value"}`},
			{"?skip_groups=a", `{"error":"skip_groups is invalid"}`},
			{"?owned=maybe", `{"error":"owned is invalid"}`},
			{"?per_page=0", `{"error":"per_page does not have a valid value"}`},
		} {
			r := in.Do(t, "GET", "/groups"+tc.query, "", nil)
			assert.Equal(t, 400, r.Status, tc.query)
			assert.JSONEq(t, tc.want, string(r.Body), tc.query)
		}
	})
}

func TestGroups_SubgroupsAndDescendants(t *testing.T) {
	in := servertest.Start(t)
	root := in.NewGroup(t, "org", "public", nil)
	a := in.NewGroup(t, "a", "public", root)
	in.NewGroup(t, "b", "private", root)
	in.NewGroup(t, "a1", "public", a)
	in.NewGroup(t, "orgs", "public", nil) // shares a path prefix, is not a descendant
	secret := in.NewGroup(t, "secret", "private", nil)
	member, memberTok := in.NewUser(t, "member")
	in.AddGroupMember(t, a, member, 30)
	_, nobodyTok := in.NewUser(t, "nobody")

	for _, tc := range []struct {
		desc, path, token string
		want              []string
	}{
		{"anonymous subgroups", "/groups/org/subgroups", "", []string{"org/a"}},
		{"anonymous descendants", "/groups/org/descendant_groups", "", []string{"org/a", "org/a/a1"}},
		{"admin subgroups", "/groups/" + id(root) + "/subgroups", servertest.RootToken, []string{"org/a", "org/b"}},
		{"admin descendants", "/groups/org/descendant_groups", servertest.RootToken, []string{"org/a", "org/a/a1", "org/b"}},
		{"member descendants", "/groups/org/descendant_groups", memberTok, []string{"org/a", "org/a/a1"}},
		{"non-member without all_available", "/groups/org/subgroups", nobodyTok, []string{}},
		{"non-member with all_available", "/groups/org/subgroups?all_available=true", nobodyTok, []string{"org/a"}},
		{"filters apply", "/groups/org/descendant_groups?search=a1", servertest.RootToken, []string{"org/a/a1"}},
		{"subgroup search is on path and name", "/groups/org/subgroups?search=org", servertest.RootToken, []string{}},
		{"ordering", "/groups/org/descendant_groups?order_by=id&sort=desc", servertest.RootToken, []string{"org/a/a1", "org/b", "org/a"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, paths(t, in.Do(t, "GET", tc.path, tc.token, nil)))
		})
	}
	t.Run("invisible parent", func(t *testing.T) {
		for _, p := range []string{"/groups/" + id(secret) + "/subgroups", "/groups/secret/descendant_groups", "/groups/9999/subgroups"} {
			r := in.Do(t, "GET", p, nobodyTok, nil)
			assert.Equal(t, 404, r.Status, p)
			assert.JSONEq(t, `{"message":"404 Group Not Found"}`, string(r.Body))
		}
	})
	t.Run("client-go", func(t *testing.T) {
		gl := in.Client(t, "")
		subs, _, err := gl.Groups.ListSubGroups("org", nil)
		require.NoError(t, err)
		require.Len(t, subs, 1)
		assert.Equal(t, "org / a", subs[0].FullName)
		desc, resp, err := gl.Groups.ListDescendantGroups(root.ID, &gitlab.ListDescendantGroupsOptions{ListOptions: gitlab.ListOptions{PerPage: 1}})
		require.NoError(t, err)
		require.Len(t, desc, 1)
		assert.Equal(t, int64(2), resp.TotalItems)
		assert.Equal(t, int64(2), resp.NextPage)
	})
}
