package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSearch_overlongTermsAreSafeQueries sends search terms past SQLite's LIKE pattern limit
// (50,000 bytes; wildcards, which a LIKE pattern escapes, double it) to every list route with a
// `search` parameter: each answers 200 with a JSON array (PostgreSQL, as GitLab, has no such
// limit), and the term still matches when it is found in the row.
func TestSearch_overlongTermsAreSafeQueries(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	in := f.In
	p := f.Project(t, "searchable", "public")
	repo := f.Repo(t, p)
	head := servertest.Commit(t, repo, "", "README.md", 1)
	servertest.SetBranch(t, repo, "main", head)
	pid := fmt.Sprint(p.ID)
	in.Do(t, "POST", "/projects/"+pid+"/protected_branches", servertest.RootToken, `{"name":"main"}`)
	in.Do(t, "POST", "/projects/"+pid+"/star", f.Tokens["developer"], nil)
	uid := fmt.Sprint(f.Users["developer"].ID)
	// Rows to match against: SQLite checks a LIKE pattern only when it compares a row.
	for path, body := range map[string]string{
		"/labels": `{"name":"bug","color":"#ff0000"}`, "/milestones": `{"title":"m1"}`, "/issues": `{"title":"i1"}`,
	} {
		r := in.Do(t, "POST", "/projects/"+pid+path, servertest.RootToken, body)
		require.Equal(t, 201, r.Status, r.String())
	}

	routes := []string{
		"/projects", "/groups", "/users", "/namespaces",
		"/groups/g/subgroups", "/groups/g/descendant_groups", "/groups/g/projects",
		"/groups/g/members?query=", "/groups/g/members/all?query=", "/groups/g/billable_members",
		"/users/" + uid + "/projects", "/users/" + uid + "/starred_projects",
		"/projects/" + pid + "/members?query=", "/projects/" + pid + "/members/all?query=",
		"/projects/" + pid + "/users", "/projects/" + pid + "/groups", "/projects/" + pid + "/starrers",
		"/projects/" + pid + "/forks", "/projects/" + pid + "/protected_branches",
		"/projects/" + pid + "/repository/branches", "/projects/" + pid + "/repository/tags",
		"/personal_access_tokens",
		"/issues", "/projects/" + pid + "/issues", "/groups/g/issues",
		"/projects/" + pid + "/labels", "/groups/g/labels", "/projects/" + pid + "/milestones", "/groups/g/milestones",
	}
	terms := map[string]string{
		"60,000 letters":            strings.Repeat("A", 60000),
		"30,000 wildcards":          strings.Repeat("%_", 15000),
		"two words of 30,000 bytes": strings.Repeat("b", 30000) + " " + strings.Repeat("c", 30000),
		"long word quoted":          `"` + strings.Repeat("é", 30000) + `"`,
	}
	for _, route := range routes {
		for desc, term := range terms {
			for _, order := range []string{"", "&order_by=similarity"} {
				t.Run(route+" "+desc+order, func(t *testing.T) {
					target := route + "?search=" + url.QueryEscape(term)
					if strings.HasSuffix(route, "?query=") { // members name it query
						target = route + url.QueryEscape(term)
					}
					r := in.Do(t, "GET", target+order, servertest.RootToken, nil)
					if order != "" && r.Status == 400 {
						return // the route has no similarity order: refused by name, not a 500
					}
					require.Equal(t, 200, r.Status, "%.300s", r.Body)
					var items []json.RawMessage
					require.NoError(t, json.Unmarshal(r.Body, &items), "%.300s", r.Body)
					assert.Len(t, items, 0)
				})
			}
		}
	}

	// The same matching still finds what contains the term, case-insensitively.
	// (similarity keeps to the caller's own projects, as GitLab's does: the developer's here)
	for _, tc := range []struct{ route, search, want string }{
		{"/projects?order_by=similarity&search=", "SEARCHAB", `"path":"searchable"`},
		{"/groups?order_by=similarity&search=", "G", `"path":"g"`},
		{"/users?search=", "DEVELO", `"username":"developer"`},
		{"/projects/" + pid + "/starrers?search=", "velop", `"username":"developer"`},
		{"/groups/g/members?query=", "maintain", `"username":"maintainer"`},
	} {
		r := in.Do(t, "GET", tc.route+url.QueryEscape(tc.search), f.Tokens["developer"], nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Contains(t, string(r.Body), tc.want, tc.route)
	}
	r := in.Do(t, "GET", "/projects/"+pid+"/protected_branches?search=MAI", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Contains(t, string(r.Body), `"name":"main"`)
	r = in.Do(t, "GET", "/personal_access_tokens?search=TES", f.Tokens["developer"], nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Contains(t, string(r.Body), `"user_id":`+uid)
}
