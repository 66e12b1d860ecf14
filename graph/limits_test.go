package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
)

// parents is a group query nested n parent levels deep: its depth is n+2.
func parents(n int) string {
	return `{ group(fullPath: "g") { ` + strings.Repeat("parent { ", n) + "id" + strings.Repeat(" }", n) + " } }"
}

// aliases is a query of n aliased currentUser { id } fields: its complexity is 2n.
func aliases(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " u%d: currentUser { id }", i)
	}
	b.WriteString(" }")
	return b.String()
}

func testLimits(t *testing.T, in *servertest.Instance) {
	in.NewGroup(t, "g", "public", nil)
	_, token := in.NewUser(t, "alice")
	for _, tc := range []struct {
		desc, token, query string
		err                string // "" when the query must run
	}{
		{"anonymous depth 15", "", parents(13), ""},
		{"anonymous depth 16", "", parents(14), "Query has depth of 16, which exceeds max depth of 15"},
		{"signed-in depth 20", token, parents(18), ""},
		{"signed-in depth 21", token, parents(19), "Query has depth of 21, which exceeds max depth of 20"},
		{"anonymous complexity 200", "", aliases(100), ""},
		{"anonymous complexity 202", "", aliases(101), "Query has complexity of 202, which exceeds max complexity of 200"},
		{"signed-in complexity 250", token, aliases(125), ""},
		{"signed-in complexity 252", token, aliases(126), "Query has complexity of 252, which exceeds max complexity of 250"},
		{"admin complexity 300", servertest.RootToken, aliases(150), ""},
		{"admin complexity 302", servertest.RootToken, aliases(151), "Query has complexity of 302, which exceeds max complexity of 300"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := gql(t, in, tc.token, tc.query, nil)
			if tc.err == "" {
				assert.Equal(t, http.StatusOK, r.Status)
				assert.NotContains(t, string(r.Body), `"errors"`, r.String())
				return
			}
			code := "MAX_DEPTH_EXCEEDED"
			if strings.Contains(tc.err, "complexity") {
				code = "MAX_COMPLEXITY_EXCEEDED"
			}
			assertJSON(t, r, http.StatusOK, `{"errors":[{"message":"`+tc.err+`","extensions":{"code":"`+code+`"}}]}`)
		})
	}
	t.Run("queryComplexity reports score and limit", func(t *testing.T) {
		for tok, limit := range map[string]float64{"": 200, token: 250, servertest.RootToken: 300} {
			d := data(t, in, tok, `{ queryComplexity { score limit } currentUser { id } }`, nil)
			assert.Equal(t, map[string]any{"score": float64(5), "limit": limit}, d["queryComplexity"])
		}
	})
}

func TestConnections_pagination(t *testing.T) {
	in := servertest.Start(t)
	for i := range 102 {
		in.NewGroup(t, fmt.Sprintf("g%03d", i), "public", nil)
	}
	const q = `query($first: Int, $after: Cursor) { groups(first: $first, after: $after) {
		count nodes { fullPath } edges { cursor node { fullPath } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`
	for _, tc := range []struct {
		desc  string
		first any
		nodes int
		next  bool
	}{
		{"default page is 100", nil, 100, true},
		{"first above 100 is cut to 100", 500, 100, true},
		{"first 2", 2, 2, true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			d := data(t, in, "", q, map[string]any{"first": tc.first})
			conn := d["groups"].(map[string]any)
			assert.Equal(t, float64(102), conn["count"])
			assert.Len(t, conn["nodes"], tc.nodes)
			assert.Len(t, conn["edges"], tc.nodes)
			assert.Equal(t, tc.next, path(conn, "pageInfo", "hasNextPage"))
			assert.Equal(t, path(conn, "nodes", 0, "fullPath"), path(conn, "edges", 0, "node", "fullPath"))
		})
	}
	t.Run("after endCursor continues", func(t *testing.T) {
		first := data(t, in, "", q, map[string]any{"first": 100})
		end := path(first, "groups", "pageInfo", "endCursor")
		rest := data(t, in, "", q, map[string]any{"first": 100, "after": end})
		assert.Len(t, path(rest, "groups", "nodes"), 2)
		assert.Equal(t, false, path(rest, "groups", "pageInfo", "hasNextPage"))
		assert.Equal(t, true, path(rest, "groups", "pageInfo", "hasPreviousPage"))
		seen := map[string]bool{}
		for _, page := range []map[string]any{first, rest} {
			for _, n := range path(page, "groups", "nodes").([]any) {
				p := n.(map[string]any)["fullPath"].(string)
				assert.False(t, seen[p], "node twice: %s", p)
				seen[p] = true
			}
		}
		assert.Len(t, seen, 102)
	})
	t.Run("negative first", func(t *testing.T) {
		r := gql(t, in, "", `{ groups(first: -1) { count } }`, nil)
		assert.Contains(t, r.String(), "`first` on a connection cannot be less than zero.")
	})
}
