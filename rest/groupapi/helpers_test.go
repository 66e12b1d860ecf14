package groupapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/require"
)

// paths returns the full_path of each group of a list, in order.
func paths(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.Decode[[]map[string]any](t, r)
	out := make([]string, len(list))
	for i, g := range list {
		out[i] = g["full_path"].(string)
	}
	return out
}

func id(n *ent.Namespace) string { return strconv.Itoa(n.ID) }
