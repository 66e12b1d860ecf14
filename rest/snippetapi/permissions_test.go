package snippetapi_test

import (
	"net/url"
	"sort"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// titles lists the titles of a snippet list, sorted.
func titles(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, s := range servertest.List(t, r) {
		out = append(out, s["title"].(string))
	}
	sort.Strings(out)
	return out
}

// TestPersonalSnippetVisibility: who reads, lists, changes and deletes private, internal and
// public personal snippets.
func TestPersonalSnippetVisibility(t *testing.T) {
	in := servertest.Start(t)
	_, author := in.NewUser(t, "author")
	_, other := in.NewUser(t, "other")
	_, external := in.NewUser(t, "ext", servertest.External)
	ids := map[string]string{}
	for _, v := range []string{"private", "internal", "public"} {
		ids[v] = idOf(create(t, in, "/snippets", author, url.Values{"title": {v}, "visibility": {v}, "file_name": {"f"}, "content": {v}}))
	}
	callers := []struct{ name, token string }{{"anonymous", ""}, {"other", other}, {"external", external},
		{"author", author}, {"admin", servertest.RootToken}}
	read := map[string]map[string]int{
		"private":  {"anonymous": 404, "other": 404, "external": 404, "author": 200, "admin": 200},
		"internal": {"anonymous": 404, "other": 200, "external": 404, "author": 200, "admin": 200},
		"public":   {"anonymous": 200, "other": 200, "external": 200, "author": 200, "admin": 200},
	}
	for v, id := range ids {
		for _, c := range callers {
			t.Run(v+"/"+c.name, func(t *testing.T) {
				want := read[v][c.name]
				r := in.Do(t, "GET", "/snippets/"+id, c.token, nil)
				require.Equal(t, want, r.Status, r.String())
				if want == 404 {
					assert.Equal(t, map[string]any{"message": "404 Snippet Not Found"}, servertest.Object(t, r))
				}
				r = in.Do(t, "GET", "/snippets/"+id+"/raw", c.token, nil)
				require.Equal(t, want, r.Status, r.String())
				if want == 200 {
					assert.Equal(t, v, string(r.Body))
				}
				assert.Equal(t, want, in.Do(t, "GET", "/snippets/"+id+"/files/main/f/raw", c.token, nil).Status)
				// Only the author changes and deletes a personal snippet through this API:
				// others (administrators included) do not find it among their own.
				change, del := 404, 404
				switch c.name {
				case "anonymous":
					change, del = 401, 401
				case "author":
					change, del = 200, 204
				}
				r = in.Do(t, "PUT", "/snippets/"+id, c.token, url.Values{"description": {"by " + c.name}})
				require.Equal(t, change, r.Status, r.String())
				if c.name != "author" {
					assert.Equal(t, del, in.Do(t, "DELETE", "/snippets/"+id, c.token, nil).Status)
				}
			})
		}
	}
	lists := []struct {
		path, caller, token string
		want                []string
	}{
		{"/snippets", "author", author, []string{"internal", "private", "public"}},
		{"/snippets", "other", other, []string{}},
		{"/snippets/public", "other", other, []string{"public"}},
		{"/snippets/public", "author", author, []string{"public"}},
		{"/snippets/all", "other", other, []string{"internal", "public"}},
		{"/snippets/all", "external", external, []string{"public"}},
		{"/snippets/all", "author", author, []string{"internal", "private", "public"}},
		{"/snippets/all", "admin", servertest.RootToken, []string{"internal", "private", "public"}},
	}
	for _, l := range lists {
		t.Run(l.path+" as "+l.caller, func(t *testing.T) {
			assert.Equal(t, l.want, titles(t, in.Do(t, "GET", l.path, l.token, nil)))
		})
	}
	for _, path := range []string{"/snippets", "/snippets/public", "/snippets/all"} {
		servertest.RequireError(t, in.Do(t, "GET", path, "", nil), 401, "message", "401 Unauthorized")
	}
	servertest.RequireError(t, in.Do(t, "POST", "/snippets", "", url.Values{"title": {"x"}, "file_name": {"f"}, "content": {"c"}}),
		401, "message", "401 Unauthorized")
	for _, id := range ids {
		require.Equal(t, 204, in.Do(t, "DELETE", "/snippets/"+id, author, nil).Status)
		assert.Equal(t, 404, in.Do(t, "GET", "/snippets/"+id, author, nil).Status)
	}
}

// TestProjectSnippetPermissions: the role × snippets_access_level × snippet visibility matrix
// of a public project's snippets.
func TestProjectSnippetPermissions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "grp", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	base := "/projects/" + strconv.Itoa(p.ID) + "/snippets"
	ids := map[string]string{}
	for _, v := range []string{"private", "internal", "public"} {
		ids[v] = idOf(create(t, in, base, servertest.RootToken, url.Values{"title": {v}, "visibility": {v}, "file_name": {"f"}, "content": {v}}))
	}
	roles := servertest.Roles(t, in, "m", g)
	member := func(r servertest.Role) bool { return r.Level > 0 || r.Name == "admin" }

	for _, level := range []string{"enabled", "private", "disabled"} {
		r := in.Do(t, "PUT", "/projects/"+strconv.Itoa(p.ID), servertest.RootToken, url.Values{"snippets_access_level": {level}})
		require.Equal(t, 200, r.Status, r.String())
		for _, role := range roles {
			t.Run(level+"/"+role.Name, func(t *testing.T) {
				// The feature first: 403 where it is not available to the caller.
				available := level == "enabled" || (level == "private" && member(role))
				for v, id := range ids {
					want := 200
					switch {
					case !available:
						want = 403
					case member(role):
					case v == "private", v == "internal" && role.Name == "anonymous":
						want = 404
					}
					r := in.Do(t, "GET", base+"/"+id, role.Token, nil)
					require.Equal(t, want, r.Status, "%s snippet: %s", v, r.String())
					assert.Equal(t, want, in.Do(t, "GET", base+"/"+id+"/raw", role.Token, nil).Status, v)
					// GET /snippets/:id hides what the project hides.
					byID := want
					if byID == 403 {
						byID = 404
					}
					assert.Equal(t, byID, in.Do(t, "GET", "/snippets/"+id, role.Token, nil).Status, v)
				}
				list := in.Do(t, "GET", base, role.Token, nil)
				switch {
				case !available:
					require.Equal(t, 403, list.Status, list.String())
				case role.Name == "anonymous":
					require.Equal(t, 401, list.Status, list.String())
				case member(role):
					assert.Equal(t, []string{"internal", "private", "public"}, titles(t, list))
				default:
					assert.Equal(t, []string{"internal", "public"}, titles(t, list))
				}
				// Writing: Reporters create; Maintainers change and delete others' snippets.
				want := map[bool]int{true: 201, false: 403}[role.Level >= 20 || role.Name == "admin"]
				if available && role.Name == "anonymous" {
					want = 401
				}
				if !available {
					want = 403
				}
				r := in.Do(t, "POST", base, role.Token, url.Values{"title": {"by " + role.Name}, "visibility": {"private"}, "file_name": {"f"}, "content": {"c"}})
				require.Equal(t, want, r.Status, r.String())
				created := r
				update := map[bool]int{true: 200, false: 403}[role.Level >= 40 || role.Name == "admin"]
				switch {
				case !available:
					update = 403
				case role.Name == "anonymous":
					update = 401
				}
				r = in.Do(t, "PUT", base+"/"+ids["public"], role.Token, url.Values{"description": {"by " + role.Name}})
				require.Equal(t, update, r.Status, r.String())
				if want != 201 {
					return
				}
				// Authors change their own snippets and, being Reporters, delete them.
				own := idOf(servertest.Object(t, created))
				r = in.Do(t, "PUT", base+"/"+own, role.Token, `{"files":[{"action":"update","file_path":"f","content":"new"}]}`)
				require.Equal(t, 200, r.Status, r.String())
				require.Equal(t, 204, in.Do(t, "DELETE", base+"/"+own, role.Token, nil).Status)
			})
		}
	}
}
