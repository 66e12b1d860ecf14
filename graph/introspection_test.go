package graph_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fullIntrospection asks for the whole schema the way GraphiQL and code generators do, with
// type references nested eight levels deep.
const fullIntrospection = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
}`

// TestSchema runs the read-only checks on one server: introspection, the explorer, global id
// errors and the query limits.
func TestSchema(t *testing.T) {
	in := servertest.Start(t)
	t.Run("introspection", func(t *testing.T) { testIntrospection(t, in) })
	t.Run("explorer", func(t *testing.T) { testExplorer(t, in) })
	t.Run("invalid global ids", func(t *testing.T) { testInvalidGlobalIDs(t, in) })
	t.Run("limits", func(t *testing.T) { testLimits(t, in) })
}

func testIntrospection(t *testing.T, in *servertest.Instance) {
	d := data(t, in, "", fullIntrospection, nil)
	assert.Equal(t, "Query", path(d, "__schema", "queryType", "name"))
	assert.Equal(t, "Mutation", path(d, "__schema", "mutationType", "name"))
	types := map[string]bool{}
	for _, ty := range path(d, "__schema", "types").([]any) {
		types[ty.(map[string]any)["name"].(string)] = true
	}
	for _, name := range []string{"Project", "Group", "User", "Member", "AccessLevel", "ProjectConnection", "PageInfo", "UserID", "Time"} {
		assert.True(t, types[name], name)
	}

	d = data(t, in, "", `{ __type(name: "Project") { fields { name } } }`, nil)
	var fields []string
	for _, f := range path(d, "__type", "fields").([]any) {
		fields = append(fields, f.(map[string]any)["name"].(string))
	}
	assert.Subset(t, fields, []string{"id", "name", "path", "fullPath", "webUrl", "visibility", "namespace", "group", "projectMembers"})
}

func testExplorer(t *testing.T, in *servertest.Instance) {
	r := in.Do(t, "GET", "/-/graphql-explorer", "", nil)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, "text/html; charset=utf-8", r.Header.Get("Content-Type"))
	page := string(r.Body)
	assert.NotContains(t, page, "http://", "no asset comes from elsewhere")
	assert.NotContains(t, page, "https://", "no asset comes from elsewhere")

	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	require.Len(t, refs, 5, page)
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, ref := range refs {
		t.Run(ref[1], func(t *testing.T) {
			require.True(t, strings.HasPrefix(ref[1], "graphql-explorer/assets/"), "relative to the page")
			r := in.Do(t, "GET", "/-/"+ref[1], "", nil)
			require.Equal(t, http.StatusOK, r.Status)
			assert.Equal(t, types[ref[1][strings.LastIndexByte(ref[1], '.'):]], r.Header.Get("Content-Type"))
			assert.Greater(t, len(r.Body), 100)
		})
	}
	t.Run("the start-up script targets /api/graphql", func(t *testing.T) {
		r := in.Do(t, "GET", "/-/graphql-explorer/assets/explorer.js", "", nil)
		assert.Contains(t, string(r.Body), "new URL('../api/graphql', window.location.href)")
	})
	t.Run("trailing slash", func(t *testing.T) {
		req, _ := http.NewRequest("GET", in.URL+"/-/graphql-explorer/", nil)
		resp, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
		assert.Equal(t, "/-/graphql-explorer", resp.Header.Get("Location"))
	})
	t.Run("unknown asset", func(t *testing.T) {
		assert.Equal(t, http.StatusNotFound, in.Do(t, "GET", "/-/graphql-explorer/assets/nope.js", "", nil).Status)
		assert.Equal(t, http.StatusNotFound, in.Do(t, "GET", "/-/graphql-explorer/other", "", nil).Status)
	})
}
