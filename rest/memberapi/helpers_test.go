package memberapi_test

import (
	"context"
	"sort"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/member"

	"github.com/stretchr/testify/require"
)

// levels maps user id to access_level for a member list response.
func levels(t *testing.T, r *servertest.Response) map[int]int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := map[int]int{}
	for _, m := range servertest.Decode[[]map[string]any](t, r) {
		out[int(m["id"].(float64))] = int(m["access_level"].(float64))
	}
	return out
}

// ids returns the user ids of a member list response, in order.
func ids(t *testing.T, r *servertest.Response) []int {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	var out []int
	for _, m := range servertest.Decode[[]map[string]any](t, r) {
		out = append(out, int(m["id"].(float64)))
	}
	return out
}

func sorted(ids ...int) []int {
	out := append([]int{}, ids...)
	sort.Ints(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// gpath is the members path of a group; ppath of a project.
func gpath(g *ent.Namespace) string { return "/groups/" + itoa(g.ID) + "/members" }
func ppath(p *ent.Project) string   { return "/projects/" + itoa(p.ID) + "/members" }

// shareGroup shares group with invited at access (a fixture).
func shareGroup(t *testing.T, in *servertest.Instance, group, invited *ent.Namespace, access int) {
	t.Helper()
	require.NoError(t, in.DB.Client.GroupGroupLink.Create().SetSharedGroupID(group.ID).
		SetSharedWithGroupID(invited.ID).SetGroupAccess(access).Exec(context.Background()))
}

// shareProject shares a project with a group at access (a fixture).
func shareProject(t *testing.T, in *servertest.Instance, p *ent.Project, invited *ent.Namespace, access int) {
	t.Helper()
	require.NoError(t, in.DB.Client.ProjectGroupLink.Create().SetProjectID(p.ID).
		SetGroupID(invited.ID).SetGroupAccess(access).Exec(context.Background()))
}

// expire sets a membership's expiry date.
func expire(t *testing.T, in *servertest.Instance, u *ent.User, when time.Time) {
	t.Helper()
	_, err := in.DB.Client.Member.Update().Where(member.UserID(u.ID)).SetExpiresAt(when).Save(context.Background())
	require.NoError(t, err)
}

// memberCount counts a user's membership rows.
func memberCount(t *testing.T, in *servertest.Instance, u *ent.User) int {
	t.Helper()
	n, err := in.DB.Client.Member.Query().Where(member.UserID(u.ID)).Count(context.Background())
	require.NoError(t, err)
	return n
}

// dropMembers deletes a user's membership rows (resets a fixture between cases).
func dropMembers(t *testing.T, in *servertest.Instance, u *ent.User) {
	t.Helper()
	_, err := in.DB.Client.Member.Delete().Where(member.UserID(u.ID)).Exec(context.Background())
	require.NoError(t, err)
}
