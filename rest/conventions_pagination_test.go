package rest_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// pagedList is one offset-paginated listing and the token that reads it; key names the field
// that identifies an item ("id" unless set).
type pagedList struct {
	desc, path, token, key string
}

// TestConventions_offsetPagination walks every offset-paginated listing that exists with the
// same checks: exact X-* headers, Link order and URLs, clamping, pages past the end, following
// rel="next" to the end, and client-go's pagination.
func TestConventions_offsetPagination(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	pg := in.NewGroup(t, "pg", "private", nil)
	owner, ownerToken := in.NewUser(t, "pager")
	in.AddGroupMember(t, pg, owner, 50)
	first := in.NewProject(t, pg, "p0", "private")
	soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	for i := range 5 {
		in.NewGroup(t, fmt.Sprintf("sub%d", i), "private", pg)
		if i > 0 {
			in.NewProject(t, pg, fmt.Sprintf("p%d", i), "private")
		}
		in.NewProject(t, in.PersonalNamespace(t, owner), fmt.Sprintf("own%d", i), "public")
		u, _ := in.NewUser(t, fmt.Sprintf("member%d", i))
		in.AddGroupMember(t, pg, u, 30)
		in.AddProjectMember(t, first, u, 20)
		in.NewToken(t, owner.ID, "read_api")
		r := in.Do(t, "POST", "/projects/pg%2Fp0/access_tokens", ownerToken, fmt.Sprintf(`{"name":"bot%d","scopes":["api"],"expires_at":%q}`, i, soon))
		require.Equal(t, 201, r.Status, r.String())
		r = in.Do(t, "POST", fmt.Sprintf("/users/%d/impersonation_tokens", owner.ID), root, fmt.Sprintf(`{"name":"imp%d","scopes":["api"],"expires_at":%q}`, i, soon))
		require.Equal(t, 201, r.Status, r.String())
	}

	// A project with a repository (made through the API) for the repository listings.
	r := in.Do(t, "POST", "/projects", ownerToken, fmt.Sprintf(`{"name":"repo","namespace_id":%d,"initialize_with_readme":true}`, pg.ID))
	require.Equal(t, 201, r.Status, r.String())
	for i := range 5 {
		r = in.Do(t, "POST", pathWith("/projects/pg%2Frepo/repository/branches", "branch", fmt.Sprintf("b%d", i), "ref", "main"), ownerToken, nil)
		require.Equal(t, 201, r.Status, r.String())
		r = in.Do(t, "POST", "/projects/pg%2Frepo/repository/tags", ownerToken, fmt.Sprintf(`{"tag_name":"v%d","ref":"main"}`, i))
		require.Equal(t, 201, r.Status, r.String())
		r = in.Do(t, "POST", "/projects/pg%2Frepo/protected_branches", ownerToken, fmt.Sprintf(`{"name":"release-%d"}`, i))
		require.Equal(t, 201, r.Status, r.String())
	}

	lists := []pagedList{
		{"users", "/users", root, ""},
		{"groups", "/groups", root, ""},
		{"projects", "/projects", root, ""},
		{"user projects", fmt.Sprintf("/users/%d/projects", owner.ID), ownerToken, ""},
		{"subgroups", "/groups/pg/subgroups", ownerToken, ""},
		{"descendant groups", "/groups/pg/descendant_groups", ownerToken, ""},
		{"group projects", "/groups/pg/projects", ownerToken, ""},
		{"group members", "/groups/pg/members", ownerToken, ""},
		{"group members/all", "/groups/pg/members/all", ownerToken, ""},
		{"billable members", "/groups/pg/billable_members", ownerToken, ""},
		{"project members", "/projects/pg%2Fp0/members", ownerToken, ""},
		{"project members/all", "/projects/pg%2Fp0/members/all", ownerToken, ""},
		{"personal access tokens", "/personal_access_tokens", ownerToken, ""},
		{"project access tokens", "/projects/pg%2Fp0/access_tokens", ownerToken, ""},
		{"impersonation tokens", fmt.Sprintf("/users/%d/impersonation_tokens", owner.ID), root, ""},
		{"branches", "/projects/pg%2Frepo/repository/branches", ownerToken, "name"},
		{"tags", "/projects/pg%2Frepo/repository/tags", ownerToken, "name"},
		{"protected branches", "/projects/pg%2Frepo/protected_branches", ownerToken, "name"},
	}
	for _, l := range lists {
		t.Run(l.desc, func(t *testing.T) { checkOffsetPagination(t, in, l) })
	}

	t.Run("empty lists", func(t *testing.T) {
		empty := in.NewGroup(t, "empty", "private", nil)
		ep := in.NewProject(t, empty, "ep", "private")
		for _, path := range []string{
			"/users?search=zzz-no-match", "/groups?search=zzz-no-match", "/projects?search=zzz-no-match",
			fmt.Sprintf("/groups/%d/members", empty.ID), fmt.Sprintf("/groups/%d/subgroups", empty.ID),
			fmt.Sprintf("/groups/%d/projects?search=zzz-no-match", empty.ID),
			fmt.Sprintf("/projects/%d/members", ep.ID), fmt.Sprintf("/projects/%d/access_tokens", ep.ID),
			"/personal_access_tokens?search=zzz-no-match",
		} {
			r := in.Do(t, "GET", path, root, nil)
			require.Equal(t, 200, r.Status, "%s: %s", path, r.String())
			assert.Equal(t, "[]", string(r.Body), path)
			requirePageHeaders(t, r, path, pageHeaders{total: "0", totalPages: "1", perPage: "20", page: "1", next: "", prev: ""})
			assert.Equal(t, []string{"first", "last"}, rels(parseLinks(t, r.Header.Get("Link"))), path)
		}
	})

	t.Run("huge page numbers are past the end", func(t *testing.T) {
		// (page-1)*per_page overflows int64 here; it must not wrap around to page 1 (SQLite) or
		// fail in the database (PostgreSQL).
		for _, path := range []string{"/groups/pg/subgroups", "/groups/pg/members", "/personal_access_tokens", "/projects/pg%2Fp0/access_tokens"} {
			r := in.Do(t, "GET", pathWith(path, "per_page", "100", "page", "9223372036854775807"), ownerToken, nil)
			require.Equal(t, 200, r.Status, "%s: %s", path, r.String())
			assert.Equal(t, "[]", string(r.Body), path)
			assert.Equal(t, "", r.Header.Get("X-Next-Page"), path)
		}
		// The project, group and user listings stop offset pagination at 50,000 rows, as GitLab
		// does (keyset pagination reaches further).
		for path, kind := range map[string]string{"/projects": "Project", "/groups": "Group", "/users": "User"} {
			requireJSONError(t, in.Do(t, "GET", path+"?page=9223372036854775807", ownerToken, nil), 405,
				`{"error":"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type `+kind+`. Remaining records can be retrieved using keyset pagination."}`)
		}
		r := in.Do(t, "GET", "/users?page=501&per_page=100", ownerToken, nil)
		assert.Equal(t, 405, r.Status, "page 501 of 100 starts past 50,000")
		r = in.Do(t, "GET", "/users?page=500&per_page=100", ownerToken, nil)
		assert.Equal(t, 200, r.Status, "page 500 of 100 ends at 50,000")
	})

	t.Run("client-go walks the pages", func(t *testing.T) {
		c := in.Client(t, ownerToken)
		var got []string
		opt := &gitlab.ListGroupMembersOptions{ListOptions: gitlab.ListOptions{PerPage: 2}}
		for {
			ms, resp, err := c.Groups.ListGroupMembers("pg", opt)
			require.NoError(t, err)
			for _, m := range ms {
				got = append(got, m.Username)
			}
			assert.EqualValues(t, 6, resp.TotalItems)
			assert.EqualValues(t, 3, resp.TotalPages)
			if resp.NextPage == 0 {
				break
			}
			opt.Page = resp.NextPage
		}
		assert.Len(t, got, 6)
		// The iterator follows Link rel="next".
		var viaLink []string
		for m, err := range gitlab.Scan2(func(p gitlab.PaginationOptionFunc) ([]*gitlab.GroupMember, *gitlab.Response, error) {
			return c.Groups.ListGroupMembers("pg", &gitlab.ListGroupMembersOptions{ListOptions: gitlab.ListOptions{PerPage: 2}}, p)
		}) {
			require.NoError(t, err)
			viaLink = append(viaLink, m.Username)
		}
		assert.Equal(t, got, viaLink)
	})
}

// pageHeaders are the expected X-* pagination headers.
type pageHeaders struct{ total, totalPages, perPage, page, next, prev string }

// requirePageHeaders asserts the six X-* headers exactly; empty ones must be present.
func requirePageHeaders(t testing.TB, r *servertest.Response, desc string, want pageHeaders) {
	t.Helper()
	for name, v := range map[string]string{
		"X-Total": want.total, "X-Total-Pages": want.totalPages, "X-Per-Page": want.perPage,
		"X-Page": want.page, "X-Next-Page": want.next, "X-Prev-Page": want.prev,
	} {
		got, ok := r.Header[name]
		require.True(t, ok, "%s: header %s missing", desc, name)
		require.Equal(t, []string{v}, got, "%s: header %s", desc, name)
	}
}

// checkOffsetPagination runs the pagination checks on one listing of at least 5 items.
func checkOffsetPagination(t *testing.T, in *servertest.Instance, l pagedList) {
	full := in.Do(t, "GET", pathWith(l.path, "per_page", "100"), l.token, nil)
	require.Equal(t, 200, full.Status, full.String())
	key := l.key
	if key == "" {
		key = "id"
	}
	items := func(r *servertest.Response) []string { return keysOf(t, r, key) }
	all := items(full)
	n := len(all)
	require.GreaterOrEqual(t, n, 5, "fixture too small")
	require.LessOrEqual(t, n, 100)
	requirePageHeaders(t, full, "per_page=100", pageHeaders{strconv.Itoa(n), "1", "100", "1", "", ""})

	// Default page size is 20.
	def := in.Do(t, "GET", l.path, l.token, nil)
	require.Equal(t, 200, def.Status, def.String())
	assert.Equal(t, "20", def.Header.Get("X-Per-Page"))
	assert.Equal(t, "1", def.Header.Get("X-Page"))

	// per_page above 100 is clamped to 100, silently.
	clamped := in.Do(t, "GET", pathWith(l.path, "per_page", "1000"), l.token, nil)
	require.Equal(t, 200, clamped.Status, clamped.String())
	assert.Equal(t, "100", clamped.Header.Get("X-Per-Page"))
	assert.Equal(t, all, items(clamped))

	// Every page of two, with an extra parameter holding a comma that the Link URLs must escape.
	pages := (n + 1) / 2
	var walked []string
	for page := 1; page <= pages; page++ {
		desc := fmt.Sprintf("page %d/%d", page, pages)
		r := in.Do(t, "GET", pathWith(l.path, "per_page", "2", "page", strconv.Itoa(page), "zz", "a,b"), l.token, nil)
		require.Equal(t, 200, r.Status, r.String())
		got := items(r)
		assert.Equal(t, all[(page-1)*2:min(page*2, n)], got, desc)
		walked = append(walked, got...)
		next, prev := "", ""
		wantRels := []string{}
		if page > 1 {
			prev = strconv.Itoa(page - 1)
			wantRels = append(wantRels, "prev")
		}
		if page < pages {
			next = strconv.Itoa(page + 1)
			wantRels = append(wantRels, "next")
		}
		wantRels = append(wantRels, "first", "last")
		requirePageHeaders(t, r, desc, pageHeaders{strconv.Itoa(n), strconv.Itoa(pages), "2", strconv.Itoa(page), next, prev})
		links := parseLinks(t, r.Header.Get("Link"))
		require.Equal(t, wantRels, rels(links), desc)
		wantPage := map[string]string{"prev": prev, "next": next, "first": "1", "last": strconv.Itoa(pages)}
		for _, lk := range links {
			assert.Equal(t, in.URL, lk.url.Scheme+"://"+lk.url.Host, "Link on the external base")
			assert.Equal(t, "/api/v4"+strings.SplitN(l.path, "?", 2)[0], lk.url.EscapedPath(), "Link path keeps the encoded :id")
			q := lk.url.Query()
			assert.Equal(t, wantPage[lk.rel], q.Get("page"), "%s rel=%s", desc, lk.rel)
			assert.Equal(t, "2", q.Get("per_page"))
			assert.Equal(t, "a,b", q.Get("zz"), "other parameters are kept")
			assert.Contains(t, lk.url.RawQuery, "zz=a%2Cb", "commas are escaped")
		}
	}
	assert.Equal(t, all, walked)

	// Following rel="next" from the first page visits every item once.
	var followed []string
	next := pathWith(l.path, "per_page", "2")
	for hops := 0; next != "" && hops <= pages; hops++ {
		r := in.Do(t, "GET", next, l.token, nil)
		require.Equal(t, 200, r.Status, r.String())
		followed = append(followed, items(r)...)
		next = ""
		for _, lk := range parseLinks(t, r.Header.Get("Link")) {
			if lk.rel == "next" {
				next = lk.url.String()
			}
		}
	}
	assert.Equal(t, all, followed)

	// A page past the end is an empty page, with neither prev nor next (as Kaminari says for
	// an out-of-range page).
	past := in.Do(t, "GET", pathWith(l.path, "per_page", "2", "page", strconv.Itoa(pages+1)), l.token, nil)
	require.Equal(t, 200, past.Status, past.String())
	assert.Equal(t, "[]", string(past.Body))
	requirePageHeaders(t, past, "past the end", pageHeaders{strconv.Itoa(n), strconv.Itoa(pages), "2", strconv.Itoa(pages + 1), "", ""})
	assert.Equal(t, []string{"first", "last"}, rels(parseLinks(t, past.Header.Get("Link"))))

	// Invalid values name the parameter.
	requireJSONError(t, in.Do(t, "GET", pathWith(l.path, "per_page", "abc"), l.token, nil), 400, `{"error":"per_page is invalid"}`)
	requireJSONError(t, in.Do(t, "GET", pathWith(l.path, "page", "x1"), l.token, nil), 400, `{"error":"page is invalid"}`)
}

// TestConventions_externalURL checks that ANVIL_EXTERNAL_URL, not the address the request
// came in on, is the base of web_url fields and of pagination links.
func TestConventions_externalURL(t *testing.T) {
	const ext = "https://anvil.example.test:8443"
	in := servertest.Start(t, func(c *config.Config) { c.ExternalURL = ext + "/" })
	root := servertest.RootToken
	g := in.NewGroup(t, "extg", "public", nil)
	p := in.NewProject(t, g, "extp", "public")
	in.NewProject(t, g, "extp2", "public")

	r := in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	proj := servertest.Object(t, r)
	assert.Equal(t, ext+"/extg/extp", proj["web_url"])
	assert.Equal(t, ext+"/extg/extp.git", proj["http_url_to_repo"])
	assert.Equal(t, ext+"/groups/extg", proj["namespace"].(map[string]any)["web_url"])

	r = in.Do(t, "GET", "/groups/extg", root, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, ext+"/groups/extg", servertest.Object(t, r)["web_url"])

	r = in.Do(t, "GET", "/user", root, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, ext+"/root", servertest.Object(t, r)["web_url"])

	in.NewUser(t, "second")
	for _, path := range []string{"/users?per_page=1&page=1", "/users?pagination=keyset&order_by=id&sort=asc&per_page=1",
		"/projects?pagination=keyset&order_by=id&sort=asc&per_page=1", "/groups/extg/projects?per_page=1"} {
		r = in.Do(t, "GET", path, root, nil)
		require.Equal(t, 200, r.Status, r.String())
		links := parseLinks(t, r.Header.Get("Link"))
		require.NotEmpty(t, links, path)
		for _, lk := range links {
			u := *lk.url
			u.RawQuery = ""
			assert.Equal(t, ext+"/api/v4"+strings.SplitN(path, "?", 2)[0], u.String(), "%s rel=%s", path, lk.rel)
		}
	}
}
