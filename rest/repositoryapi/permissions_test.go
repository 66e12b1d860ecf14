package repositoryapi_test

import (
	"context"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/project"

	"github.com/stretchr/testify/require"
)

// readRoutes are one request per read route, relative to the project; BLOB stands for the id
// of README.md.
var readRoutes = []string{
	"/repository/tree",
	"/repository/blobs/BLOB",
	"/repository/blobs/BLOB/raw",
	"/repository/archive.zip",
	"/repository/compare?from=v1.0&to=main",
	"/repository/contributors",
	"/repository/merge_base?refs[]=main&refs[]=feature",
	"/repository/files/README.md?ref=main",
	"/repository/files/README.md/raw",
	"/repository/files/README.md/blame?ref=main",
}

func testPermissions(t *testing.T, f *fixture) {
	blob := f.readme
	// The repository feature of "off" is disabled.
	_, err := f.In.DB.Client.Project.Update().Where(project.Path("off")).SetRepositoryAccessLevel("disabled").
		Save(context.Background())
	require.NoError(t, err)

	cases := []struct {
		project, who string
		status       int
		msg          string
	}{
		{"pub", "", 200, ""},
		{"pub", "outsider", 200, ""},
		{"pub", "guest", 200, ""},
		{"int", "", 404, "404 Project Not Found"},
		{"int", "outsider", 200, ""},
		{"priv", "", 404, "404 Project Not Found"},
		{"priv", "outsider", 404, "404 Project Not Found"},
		{"priv", "guest", 403, "403 Forbidden"},
		{"priv", "reporter", 200, ""},
		{"priv", "developer", 200, ""},
		{"priv", "root", 200, ""},
		{"off", "maintainer", 403, "403 Forbidden"},
		{"off", "", 401, "401 Unauthorized"},
	}
	for _, c := range cases {
		for _, route := range readRoutes {
			t.Run(c.project+" "+c.who+" "+route, func(t *testing.T) {
				token := f.Tokens[c.who]
				if c.who == "root" {
					token = servertest.RootToken
				}
				res := f.In.Do(t, "GET", "/projects/g%2F"+c.project+strings.ReplaceAll(route, "BLOB", blob[c.project]), token, nil)
				require.Equal(t, c.status, res.Status, res.String())
				if c.msg != "" {
					require.Equal(t, map[string]any{"message": c.msg}, servertest.Object(t, res))
				}
			})
		}
	}
}

// TestPermissions_scopes checks which token scopes reach the read routes: read_repository
// reaches files, raw blobs, blobs and archives, read_api everything, read_user nothing.
func testPermissionsScopes(t *testing.T, f *fixture) {
	r, s := f.pubRepo, f.pubSeed
	e, err := r.TreeEntryAt(context.Background(), string(s.merge), "README.md")
	require.NoError(t, err)
	uid := f.Users["developer"].ID
	tokens := map[string]string{
		"read_repository": f.In.NewToken(t, uid, "read_repository"),
		"read_api":        f.In.NewToken(t, uid, "read_api"),
		"read_user":       f.In.NewToken(t, uid, "read_user"),
	}
	repoScoped := map[string]bool{
		"/repository/blobs/BLOB": true, "/repository/blobs/BLOB/raw": true, "/repository/archive.zip": true,
		"/repository/files/README.md?ref=main": true, "/repository/files/README.md/raw": true,
		"/repository/files/README.md/blame?ref=main": true,
	}
	for scope, token := range tokens {
		for _, route := range readRoutes {
			t.Run(scope+" "+route, func(t *testing.T) {
				res := f.In.Do(t, "GET", "/projects/g%2Fpub"+strings.ReplaceAll(route, "BLOB", string(e.ID)), token, nil)
				allowed := scope == "read_api" || (scope == "read_repository" && repoScoped[route])
				if allowed {
					require.Equal(t, 200, res.Status, res.String())
					return
				}
				require.Equal(t, 403, res.Status, res.String())
				require.Equal(t, "insufficient_scope", servertest.Object(t, res)["error"])
			})
		}
	}
	res := f.In.Do(t, "PUT", "/projects/g%2Fpub/repository/files/README.md", tokens["read_repository"],
		`{"branch":"main","content":"x","commit_message":"m"}`)
	require.Equal(t, 403, res.Status, res.String())
}
