package groupapi_test

import (
	"fmt"
	"slices"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroups_PermissionMatrix checks every caller against private, internal and public groups:
// reading (404 when invisible), listing, updating and deleting (Owner), and creating a
// subgroup (Maintainer, the default subgroup_creation_level).
func TestGroups_PermissionMatrix(t *testing.T) {
	in := servertest.Start(t)
	vis := []string{"private", "internal", "public"}
	groups := map[string]*ent.Namespace{}
	for _, v := range vis {
		groups[v] = in.NewGroup(t, "m-"+v, v, nil)
	}
	rs := servertest.Roles(t, in, "m", groups["private"], groups["internal"], groups["public"])

	// visible reports whether r may see a group of visibility v.
	visible := func(r servertest.Role, v string) bool {
		switch {
		case r.Name == "admin" || r.Level > 0 || v == "public":
			return true
		case v == "internal":
			return r.Token != ""
		}
		return false
	}
	// status is the expected answer of an action that needs level (60 = administrators only).
	status := func(r servertest.Role, v string, level, ok int) int {
		switch {
		case r.Token == "":
			return 401
		case r.Name == "admin" || r.Level >= level:
			return ok
		case !visible(r, v):
			return 404
		}
		return 403
	}

	for _, r := range rs {
		for _, v := range vis {
			g := groups[v]
			t.Run(fmt.Sprintf("%s/%s", r.Name, v), func(t *testing.T) {
				want := 404
				if visible(r, v) {
					want = 200
				}
				got := in.Do(t, "GET", "/groups/"+id(g), r.Token, nil)
				assert.Equal(t, want, got.Status, "GET: %s", got)

				all := paths(t, in.Do(t, "GET", "/groups?all_available=true", r.Token, nil))
				assert.Equal(t, visible(r, v), slices.Contains(all, g.FullPath), "GET /groups?all_available=true: %v", all)
				mine := paths(t, in.Do(t, "GET", "/groups", r.Token, nil))
				listed := r.Level > 0 || r.Name == "admin" || (r.Token == "" && v == "public")
				assert.Equal(t, listed, slices.Contains(mine, g.FullPath), "GET /groups: %v", mine)

				got = in.Do(t, "PUT", "/groups/"+id(g), r.Token, `{"description":"by `+r.Name+`"}`)
				assert.Equal(t, status(r, v, 50, 200), got.Status, "PUT: %s", got)
				if got.Status == 200 {
					assert.Equal(t, "by "+r.Name, servertest.Decode[map[string]any](t, got)["description"])
				}

				sub := "sub-" + r.Name + "-" + v
				got = in.Do(t, "POST", "/groups", r.Token, `{"name":"`+sub+`","path":"`+sub+`","parent_id":`+id(g)+`}`)
				assert.Equal(t, status(r, v, 40, 201), got.Status, "POST subgroup: %s", got)
				if got.Status == 201 {
					assert.Equal(t, g.FullPath+"/"+sub, servertest.Decode[map[string]any](t, got)["full_path"])
				}

				// Deleting: refusals against the shared group; successes on a fresh group the
				// caller holds the same role in.
				want = status(r, v, 50, 202)
				target := g
				if want == 202 {
					target = in.NewGroup(t, "del-"+r.Name+"-"+v, v, nil)
					if r.Level > 0 {
						in.AddGroupMember(t, target, r.User, r.Level)
					}
				}
				got = in.Do(t, "DELETE", "/groups/"+id(target), r.Token, nil)
				assert.Equal(t, want, got.Status, "DELETE: %s", got)
				after := in.Do(t, "GET", "/groups/"+id(target), servertest.RootToken, nil).Status
				require.Equal(t, map[bool]int{true: 404, false: 200}[want == 202], after, "group deleted only when allowed")
			})
		}
	}
}
