package projectapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/require"
)

// Roles of the permission matrix, from nobody to administrator.
var roles = []string{"anonymous", "non-member", "external", "guest", "reporter", "developer", "maintainer", "owner", "admin"}

// memberLevel is the access level a role is given where it is a member.
var memberLevel = map[string]int{"guest": 10, "reporter": 20, "developer": 30, "maintainer": 40, "owner": 50}

// actors are one user and token per role (the anonymous token is empty).
type actors struct {
	users  map[string]*ent.User
	tokens map[string]string
}

func newActors(t *testing.T, in *servertest.Instance, prefix string) *actors {
	t.Helper()
	a := &actors{users: map[string]*ent.User{}, tokens: map[string]string{"anonymous": ""}}
	for _, r := range roles[1:] {
		var opts []servertest.UserOption
		switch r {
		case "admin":
			opts = append(opts, servertest.Admin)
		case "external":
			opts = append(opts, servertest.External)
		}
		u, tok := in.NewUser(t, prefix+strings.ReplaceAll(r, "-", ""), opts...)
		a.users[r], a.tokens[r] = u, tok
	}
	return a
}

// ids returns the "id" of each object of a JSON array body.
func ids(t *testing.T, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &rows), r.String())
	out := make([]int, 0, len(rows))
	for _, row := range rows {
		out = append(out, int(row["id"].(float64)))
	}
	return out
}

// noRedirect sends a request without following redirects and returns the first answer.
func noRedirect(t *testing.T, in *servertest.Instance, method, path, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+"/api/v4"+path, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("PRIVATE-TOKEN", token)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readBody reads a response body.
func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}
