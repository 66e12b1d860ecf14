package epicapi_test

import (
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// newEpic creates an epic in group gid as token and returns it.
func newEpic(t *testing.T, in *servertest.Instance, gid int, token string, form url.Values) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", "/groups/"+strconv.Itoa(gid)+"/epics", token, form)
	require.Equal(t, 201, r.Status, r.String())
	return servertest.Object(t, r)
}

// num reads a JSON number as an int.
func num(v any) int { return int(v.(float64)) }

// iids returns the iids of a list response, in order.
func iids(t *testing.T, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []int{}
	for _, e := range servertest.List(t, r) {
		out = append(out, num(e["iid"]))
	}
	return out
}
