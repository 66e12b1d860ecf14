package issueapi_test

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// decode unmarshals a JSON body.
func decode[T any](t *testing.T, r *servertest.Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

// newIssue creates an issue through the API and returns its JSON.
func newIssue(t *testing.T, in *servertest.Instance, projectID int, token string, form url.Values) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(projectID)+"/issues", token, form)
	require.Equal(t, 201, r.Status, r.String())
	return decode[map[string]any](t, r)
}

// iids lists the iids of an issue list answer, sorted.
func iids(t *testing.T, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []int{}
	for _, is := range decode[[]map[string]any](t, r) {
		out = append(out, int(is["iid"].(float64)))
	}
	sort.Ints(out)
	return out
}
