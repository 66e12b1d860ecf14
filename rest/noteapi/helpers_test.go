package noteapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// newIssue creates an issue through the API and returns its notes base path.
func newIssue(t *testing.T, in *servertest.Instance, projectID int, token string, form url.Values) string {
	t.Helper()
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(projectID)+"/issues", token, form)
	require.Equal(t, 201, r.Status, r.String())
	iid := int(servertest.Object(t, r)["iid"].(float64))
	return "/projects/" + strconv.Itoa(projectID) + "/issues/" + strconv.Itoa(iid)
}

// post sends a form and requires the status.
func post(t *testing.T, in *servertest.Instance, path, token string, status int, form url.Values) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", path, token, form)
	require.Equal(t, status, r.Status, r.String())
	if status >= 300 {
		return nil
	}
	return servertest.Object(t, r)
}

// id is a JSON number as an int.
func id(v any) int { return int(v.(float64)) }

func itoa(i int) string { return strconv.Itoa(i) }
