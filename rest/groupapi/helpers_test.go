package groupapi_test

import (
	"encoding/json"
	"sort"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/require"
)

// role is one caller of a permission matrix: a token (empty for anonymous) and, for members,
// the access level it holds in every group of the matrix.
type role struct {
	name  string
	token string
	user  *ent.User
	level int // 0: not a member
}

// roles makes the standard callers: anonymous, a non-member, Guest to Owner members (added to
// each of groups) and an administrator.
func roles(t *testing.T, in *servertest.Instance, prefix string, groups ...*ent.Namespace) []role {
	t.Helper()
	out := []role{{name: "anonymous"}}
	u, tok := in.NewUser(t, prefix+"-nonmember")
	out = append(out, role{name: "non-member", token: tok, user: u})
	for _, l := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}} {
		u, tok := in.NewUser(t, prefix+"-"+l.name)
		for _, g := range groups {
			in.AddGroupMember(t, g, u, l.level)
		}
		out = append(out, role{name: l.name, token: tok, user: u, level: l.level})
	}
	u, tok = in.NewUser(t, prefix+"-admin", servertest.Admin)
	return append(out, role{name: "admin", token: tok, user: u})
}

// decode unmarshals a JSON body.
func decode[T any](t *testing.T, r *servertest.Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

// keys returns the sorted keys of a JSON object.
func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// paths returns the full_path of each group of a list, in order.
func paths(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	list := decode[[]map[string]any](t, r)
	out := make([]string, len(list))
	for i, g := range list {
		out[i] = g["full_path"].(string)
	}
	return out
}

func id(n *ent.Namespace) string { return strconv.Itoa(n.ID) }
