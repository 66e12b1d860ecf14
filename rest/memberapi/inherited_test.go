package memberapi_test

import (
	"net/http"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMembers_inheritance: /all lists ancestors' members once each with their highest level;
// the direct listing and GET /members/:user_id stay direct.
func TestMembers_inheritance(t *testing.T) {
	in := servertest.Start(t)
	top := in.NewGroup(t, "top", "private", nil)
	sub := in.NewGroup(t, "sub", "private", top)
	proj := in.NewProject(t, sub, "app", "private")
	owner, tok := in.NewUser(t, "owner")
	dev, devTok := in.NewUser(t, "dev")
	guest, guestTok := in.NewUser(t, "guest")
	reporter, _ := in.NewUser(t, "reporter")
	in.AddGroupMember(t, top, owner, 50)
	in.AddGroupMember(t, top, dev, 30)
	in.AddGroupMember(t, sub, dev, 40) // higher below wins
	in.AddGroupMember(t, sub, guest, 10)
	in.AddProjectMember(t, proj, reporter, 20)
	in.AddProjectMember(t, proj, guest, 20)

	for _, tc := range []struct {
		desc, path string
		want       map[int]int
	}{
		{"group direct", gpath(sub), map[int]int{dev.ID: 40, guest.ID: 10}},
		{"group all", gpath(sub) + "/all", map[int]int{owner.ID: 50, dev.ID: 40, guest.ID: 10}},
		{"top all", gpath(top) + "/all", map[int]int{owner.ID: 50, dev.ID: 30}},
		{"project direct", ppath(proj), map[int]int{reporter.ID: 20, guest.ID: 20}},
		{"project all", ppath(proj) + "/all", map[int]int{owner.ID: 50, dev.ID: 40, guest.ID: 20, reporter.ID: 20}},
		{"project by encoded path", "/projects/top%2Fsub%2Fapp/members/all", map[int]int{owner.ID: 50, dev.ID: 40, guest.ID: 20, reporter.ID: 20}},
		{"group by encoded path", "/groups/top%2Fsub/members", map[int]int{dev.ID: 40, guest.ID: 10}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, levels(t, in.Do(t, "GET", tc.path, tok, nil)))
		})
	}
	t.Run("single member", func(t *testing.T) {
		r := in.Do(t, "GET", ppath(proj)+"/all/"+itoa(dev.ID), devTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, float64(40), servertest.Decode[map[string]any](t, r)["access_level"])
		r = in.Do(t, "GET", ppath(proj)+"/"+itoa(dev.ID), devTok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
		r = in.Do(t, "GET", gpath(sub)+"/all/"+itoa(reporter.ID), devTok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
	})
	t.Run("expired memberships are gone", func(t *testing.T) {
		expire(t, in, guest, time.Now().UTC().AddDate(0, 0, -1))
		assert.Equal(t, map[int]int{owner.ID: 50, dev.ID: 40}, levels(t, in.Do(t, "GET", gpath(sub)+"/all", tok, nil)))
		assert.Equal(t, map[int]int{reporter.ID: 20}, levels(t, in.Do(t, "GET", ppath(proj), tok, nil)))
		r := in.Do(t, "GET", gpath(sub)+"/"+itoa(guest.ID), tok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		// Expiring today still counts.
		expire(t, in, guest, time.Now().UTC().Truncate(24*time.Hour))
		assert.Contains(t, levels(t, in.Do(t, "GET", gpath(sub), tok, nil)), guest.ID)
	})
	t.Run("a subgroup member cannot read a private parent's members", func(t *testing.T) {
		// GitLab lets the member read the parent group itself, not its members (403).
		for _, path := range []string{gpath(top), gpath(top) + "/all", gpath(top) + "/all/" + itoa(owner.ID)} {
			r := in.Do(t, "GET", path, guestTok, nil)
			assert.Equal(t, http.StatusForbidden, r.Status, path)
			assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
		}
		assert.Contains(t, ids(t, in.Do(t, "GET", gpath(sub)+"/all", guestTok, nil)), owner.ID)
	})
	t.Run("minimal access members are direct members of the top group only", func(t *testing.T) {
		min, _ := in.NewUser(t, "minimal")
		in.AddGroupMember(t, top, min, 5)
		// Listed (and so readable, changeable and removable) among the top group's own members,
		// as GitLab lists a top-level group's all_group_members; never inherited.
		assert.Equal(t, 5, levels(t, in.Do(t, "GET", gpath(top), tok, nil))[min.ID])
		assert.NotContains(t, levels(t, in.Do(t, "GET", gpath(top)+"/all", tok, nil)), min.ID)
		assert.NotContains(t, levels(t, in.Do(t, "GET", gpath(sub)+"/all", tok, nil)), min.ID)
		r := in.Do(t, "GET", gpath(top)+"/"+itoa(min.ID), tok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, float64(5), servertest.Decode[map[string]any](t, r)["access_level"])
		r = in.Do(t, "PUT", gpath(top)+"/"+itoa(min.ID), tok, `{"access_level":10}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, float64(10), servertest.Decode[map[string]any](t, r)["access_level"])
		assert.Equal(t, http.StatusNoContent, in.Do(t, "DELETE", gpath(top)+"/"+itoa(min.ID), tok, nil).Status)
		assert.NotContains(t, levels(t, in.Do(t, "GET", gpath(top), tok, nil)), min.ID)
	})
}

// TestMembers_shares: members of invited groups appear in /all with their level capped by the
// share; members of private invited groups only for callers who belong to the source (and
// then without created_by unless they can see the invited group).
func TestMembers_shares(t *testing.T) {
	in := servertest.Start(t)
	src := in.NewGroup(t, "src", "public", nil)
	proj := in.NewProject(t, src, "app", "public")
	invited := in.NewGroup(t, "invited", "private", nil)
	linked := in.NewGroup(t, "linked", "public", nil)
	owner, ownerTok := in.NewUser(t, "owner")
	member, memberTok := in.NewUser(t, "member")
	_, strangerTok := in.NewUser(t, "stranger")
	idev, idevTok := in.NewUser(t, "idev")
	iguest, _ := in.NewUser(t, "iguest")
	ldev, _ := in.NewUser(t, "ldev")
	in.AddGroupMember(t, src, owner, 50)
	in.AddGroupMember(t, src, member, 20)
	in.AddGroupMember(t, invited, idev, 30)
	in.AddGroupMember(t, invited, iguest, 10)
	in.AddGroupMember(t, linked, ldev, 40)
	shareGroup(t, in, src, invited, 20)
	shareProject(t, in, proj, linked, 30)
	// idev was added to the invited group by the owner, so created_by is known.
	_, err := in.DB.Client.Member.Update().SetCreatedByID(owner.ID).Save(t.Context())
	require.NoError(t, err)

	groupAll := map[int]int{owner.ID: 50, member.ID: 20, idev.ID: 20, iguest.ID: 10}
	projectAll := map[int]int{owner.ID: 50, member.ID: 20, idev.ID: 20, iguest.ID: 10, ldev.ID: 30}
	for _, tc := range []struct {
		desc, token, path string
		want              map[int]int
	}{
		{"group, member of source", memberTok, gpath(src) + "/all", groupAll},
		{"group, member of invited group", idevTok, gpath(src) + "/all", groupAll},
		{"group, stranger", strangerTok, gpath(src) + "/all", map[int]int{owner.ID: 50, member.ID: 20}},
		{"project, member of source", memberTok, ppath(proj) + "/all", projectAll},
		{"project, stranger sees the public linked group", strangerTok, ppath(proj) + "/all", map[int]int{owner.ID: 50, member.ID: 20, ldev.ID: 30}},
		{"direct listing leaves invited members out", ownerTok, gpath(src), map[int]int{owner.ID: 50, member.ID: 20}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, levels(t, in.Do(t, "GET", tc.path, tc.token, nil)))
		})
	}
	t.Run("created_by of private invited members", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token string
			shown       bool
		}{
			{"hidden from a source member", memberTok, false},
			{"shown to the invited group's member", idevTok, true},
			{"shown to those who manage members", ownerTok, true},
		} {
			r := in.Do(t, "GET", gpath(src)+"/all/"+itoa(idev.ID), tc.token, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			_, has := servertest.Decode[map[string]any](t, r)["created_by"]
			assert.Equal(t, tc.shown, has, tc.desc)
		}
		r := in.Do(t, "GET", gpath(src)+"/all/"+itoa(idev.ID), strangerTok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
	})
	t.Run("highest level wins across shares", func(t *testing.T) {
		in.AddGroupMember(t, linked, member, 30)
		assert.Equal(t, 30, levels(t, in.Do(t, "GET", ppath(proj)+"/all", memberTok, nil))[member.ID])
	})
}
