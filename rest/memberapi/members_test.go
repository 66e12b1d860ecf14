package memberapi_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

var tsRe = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`

// TestMembers_shape checks the member JSON exactly: the user summary, the membership fields,
// created_by only when known, email only for administrators, is_using_seat on request.
func TestMembers_shape(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "shape", "private", nil)
	owner, ownerTok := in.NewUser(t, "owner")
	in.AddGroupMember(t, g, owner, 50)
	alice, _ := in.NewUser(t, "alice")
	_, adminTok := in.NewUser(t, "boss", servertest.Admin)

	r := in.Do(t, "POST", gpath(g), ownerTok, `{"user_id":`+itoa(alice.ID)+`,"access_level":30,"expires_at":null}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	created := servertest.Decode[map[string]any](t, r)
	assert.Regexp(t, tsRe, created["created_at"])
	delete(created, "created_at")
	createdBy := created["created_by"].(map[string]any)
	delete(created, "created_by")
	assert.Equal(t, map[string]any{
		"id": float64(alice.ID), "username": "alice", "name": "User alice", "state": "active", "locked": false,
		"avatar_url": created["avatar_url"], "web_url": in.URL + "/alice",
		"access_level": float64(30), "expires_at": nil, "membership_state": "active",
	}, created)
	assert.Regexp(t, `^https://www\.gravatar\.com/avatar/[0-9a-f]{32}\?s=80&d=identicon$`, created["avatar_url"])
	assert.Equal(t, map[string]any{
		"id": float64(owner.ID), "username": "owner", "name": "User owner", "state": "active", "locked": false,
		"avatar_url": createdBy["avatar_url"], "web_url": in.URL + "/owner",
	}, createdBy)

	t.Run("fixture members have no created_by", func(t *testing.T) {
		r := in.Do(t, "GET", gpath(g)+"/"+itoa(owner.ID), ownerTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		m := servertest.Decode[map[string]any](t, r)
		assert.NotContains(t, m, "created_by")
		assert.NotContains(t, m, "email")
		assert.NotContains(t, m, "is_using_seat")
		assert.NotContains(t, m, "group_saml_identity")
		assert.Equal(t, float64(50), m["access_level"])
	})
	t.Run("administrators see emails", func(t *testing.T) {
		r := in.Do(t, "GET", gpath(g)+"/"+itoa(alice.ID), adminTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "alice@example.com", servertest.Decode[map[string]any](t, r)["email"])
	})
	t.Run("show_seat_info", func(t *testing.T) {
		guest, _ := in.NewUser(t, "guesty")
		in.AddGroupMember(t, g, guest, 10)
		r := in.Do(t, "GET", gpath(g)+"?show_seat_info=true", ownerTok, nil)
		seats := map[string]any{}
		for _, m := range servertest.Decode[[]map[string]any](t, r) {
			seats[m["username"].(string)] = m["is_using_seat"]
		}
		assert.Equal(t, map[string]any{"owner": true, "alice": true, "guesty": false}, seats)
		// The single-member routes honour it too; without it the key is absent.
		for _, path := range []string{gpath(g) + "/" + itoa(guest.ID), gpath(g) + "/all/" + itoa(guest.ID)} {
			one := servertest.Decode[map[string]any](t, in.Do(t, "GET", path+"?show_seat_info=true", ownerTok, nil))
			assert.Equal(t, false, one["is_using_seat"], path)
			assert.NotContains(t, servertest.Decode[map[string]any](t, in.Do(t, "GET", path, ownerTok, nil)), "is_using_seat", path)
		}
	})
	t.Run("client-go decodes it", func(t *testing.T) {
		m, _, err := in.Client(t, ownerTok).GroupMembers.GetGroupMember(g.ID, int64(alice.ID))
		require.NoError(t, err)
		assert.Equal(t, gitlab.DeveloperPermissions, m.AccessLevel)
		require.NotNil(t, m.CreatedBy)
		assert.Equal(t, int64(owner.ID), m.CreatedBy.ID)
		assert.Nil(t, m.ExpiresAt)
	})
}

// TestMembers_clientGo drives the group and project member services of client-go end to end.
func TestMembers_clientGo(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "cg", "internal", nil)
	p := in.NewProject(t, g, "app", "internal")
	owner, tok := in.NewUser(t, "owner")
	in.AddGroupMember(t, g, owner, 50)
	bob, _ := in.NewUser(t, "bob")
	gl := in.Client(t, tok)
	day := gitlab.ISOTime(time.Now().UTC().AddDate(0, 1, 0).Truncate(24 * time.Hour))
	dayStr := time.Time(day).Format("2006-01-02")

	gm, _, err := gl.GroupMembers.AddGroupMember(g.ID, &gitlab.AddGroupMemberOptions{
		UserID: gitlab.Ptr(int64(bob.ID)), AccessLevel: gitlab.Ptr(gitlab.ReporterPermissions), ExpiresAt: &dayStr})
	require.NoError(t, err)
	assert.Equal(t, gitlab.ReporterPermissions, gm.AccessLevel)
	require.NotNil(t, gm.ExpiresAt)
	assert.Equal(t, dayStr, gm.ExpiresAt.String())

	gm, _, err = gl.GroupMembers.EditGroupMember(g.ID, int64(bob.ID), &gitlab.EditGroupMemberOptions{AccessLevel: gitlab.Ptr(gitlab.DeveloperPermissions)})
	require.NoError(t, err)
	assert.Equal(t, gitlab.DeveloperPermissions, gm.AccessLevel)
	require.NotNil(t, gm.ExpiresAt, "expiry kept when not given")

	list, resp, err := gl.Groups.ListGroupMembers(g.ID, nil)
	require.NoError(t, err)
	assert.Len(t, list, 2)
	assert.Equal(t, int64(2), resp.TotalItems)

	pm, _, err := gl.ProjectMembers.AddProjectMember(p.ID, &gitlab.AddProjectMemberOptions{
		UserID: bob.ID, AccessLevel: gitlab.Ptr(gitlab.MaintainerPermissions)})
	require.NoError(t, err)
	assert.Equal(t, gitlab.MaintainerPermissions, pm.AccessLevel)

	all, _, err := gl.ProjectMembers.ListAllProjectMembers(p.ID, nil)
	require.NoError(t, err)
	got := map[int64]gitlab.AccessLevelValue{}
	for _, m := range all {
		got[m.ID] = m.AccessLevel
	}
	assert.Equal(t, map[int64]gitlab.AccessLevelValue{int64(owner.ID): 50, int64(bob.ID): 40}, got)

	inh, _, err := gl.ProjectMembers.GetInheritedProjectMember(p.ID, int64(owner.ID))
	require.NoError(t, err)
	assert.Equal(t, gitlab.OwnerPermissions, inh.AccessLevel)
	_, _, err = gl.ProjectMembers.GetProjectMember(p.ID, int64(owner.ID))
	assert.ErrorIs(t, err, gitlab.ErrNotFound, "inherited members are not direct members")

	_, err = gl.ProjectMembers.DeleteProjectMember(p.ID, int64(bob.ID))
	require.NoError(t, err)
	_, err = gl.GroupMembers.RemoveGroupMember(g.ID, int64(bob.ID), nil)
	require.NoError(t, err)
	_, _, err = gl.GroupMembers.GetGroupMember(g.ID, int64(bob.ID))
	assert.ErrorIs(t, err, gitlab.ErrNotFound)
}

// TestMembers_filtersAndPagination checks query, user_ids, skip_users, state and the offset
// pagination headers.
func TestMembers_filtersAndPagination(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "many", "public", nil)
	owner, tok := in.NewUser(t, "owner")
	in.AddGroupMember(t, g, owner, 50)
	var all []int
	all = append(all, owner.ID)
	for i := range 24 {
		u, _ := in.NewUser(t, "user"+itoa(i))
		in.AddGroupMember(t, g, u, 30)
		all = append(all, u.ID)
	}
	t.Run("pagination headers", func(t *testing.T) {
		for _, path := range []string{gpath(g), gpath(g) + "/all"} {
			r := in.Do(t, "GET", path+"?per_page=10&page=2", tok, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			assert.Equal(t, all[10:20], ids(t, r))
			h := r.Header
			assert.Equal(t, "25", h.Get("X-Total"))
			assert.Equal(t, "3", h.Get("X-Total-Pages"))
			assert.Equal(t, "10", h.Get("X-Per-Page"))
			assert.Equal(t, "2", h.Get("X-Page"))
			assert.Equal(t, "3", h.Get("X-Next-Page"))
			assert.Equal(t, "1", h.Get("X-Prev-Page"))
			base := in.URL + "/api/v4" + path
			assert.Equal(t, `<`+base+`?page=1&per_page=10>; rel="prev", <`+base+`?page=3&per_page=10>; rel="next", <`+base+`?page=1&per_page=10>; rel="first", <`+base+`?page=3&per_page=10>; rel="last"`, h.Get("Link"))
		}
	})
	t.Run("client-go walks pages", func(t *testing.T) {
		var got []int
		opt := &gitlab.ListGroupMembersOptions{ListOptions: gitlab.ListOptions{PerPage: 7}}
		for {
			page, resp, err := in.Client(t, tok).Groups.ListAllGroupMembers(g.ID, opt)
			require.NoError(t, err)
			for _, m := range page {
				got = append(got, int(m.ID))
			}
			if resp.NextPage == 0 {
				break
			}
			opt.Page = resp.NextPage
		}
		assert.Equal(t, all, got)
	})
	for _, tc := range []struct {
		desc, query string
		want        []int
	}{
		{"query by username", "query=user1", []int{all[2], all[11], all[12], all[13], all[14], all[15], all[16], all[17], all[18], all[19], all[20]}},
		{"query by name, any case", "query=USER%20OWNER", []int{owner.ID}},
		{"empty query", "query=&per_page=100", all},
		{"user_ids", "user_ids[]=" + itoa(all[3]) + "&user_ids[]=" + itoa(all[5]) + "&user_ids[]=999999", []int{all[3], all[5]}},
		{"user_ids comma list", "user_ids=" + itoa(all[3]) + "," + itoa(all[5]), []int{all[3], all[5]}},
		{"skip_users", "per_page=100&skip_users[]=" + itoa(owner.ID), all[1:]},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			assert.Equal(t, tc.want, ids(t, in.Do(t, "GET", gpath(g)+"?"+tc.query, tok, nil)))
		})
	}
	t.Run("state filter on /all", func(t *testing.T) {
		_, err := in.DB.Client.Member.UpdateOneID(firstMemberID(t, in, all[4])).SetState("awaiting").Save(t.Context())
		require.NoError(t, err)
		assert.Equal(t, []int{all[4]}, ids(t, in.Do(t, "GET", gpath(g)+"/all?state=awaiting", tok, nil)))
		assert.Len(t, ids(t, in.Do(t, "GET", gpath(g)+"/all?state=active&per_page=100", tok, nil)), 24)
		r := in.Do(t, "GET", gpath(g)+"/"+itoa(all[4]), tok, nil)
		assert.Equal(t, "awaiting", servertest.Decode[map[string]any](t, r)["membership_state"])
		r = in.Do(t, "GET", gpath(g)+"/all?state=pending", tok, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"state does not have a valid value"}`, string(r.Body))
	})
	t.Run("bad parameters", func(t *testing.T) {
		for _, tc := range []struct{ query, body string }{
			{"user_ids[]=abc", `{"error":"user_ids is invalid"}`},
			{"show_seat_info=maybe", `{"error":"show_seat_info is invalid"}`},
			{"per_page=abc", `{"error":"per_page is invalid"}`},
		} {
			r := in.Do(t, "GET", gpath(g)+"?"+tc.query, tok, nil)
			assert.Equal(t, http.StatusBadRequest, r.Status, tc.query)
			assert.JSONEq(t, tc.body, string(r.Body), tc.query)
		}
	})
	t.Run("path id", func(t *testing.T) {
		r := in.Do(t, "GET", "/groups/"+url.PathEscape("many")+"/members/all/"+itoa(owner.ID), tok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
	})
}

func firstMemberID(t *testing.T, in *servertest.Instance, userID int) int {
	t.Helper()
	u, err := in.DB.Client.User.Get(t.Context(), userID)
	require.NoError(t, err)
	m, err := u.QueryMemberships().First(t.Context())
	require.NoError(t, err)
	return m.ID
}

// TestMembers_queryOrder: with query=, members come in GitLab's user-search order: an exact
// username (or public email, or name) match first, then by name; without it, by membership.
func TestMembers_queryOrder(t *testing.T) {
	in := servertest.Start(t)
	owner, ownerTok := in.NewUser(t, "owner")
	g := in.NewGroup(t, "searched", "private", nil)
	in.AddGroupMember(t, g, owner, 50)
	named := func(name string) servertest.UserOption { return func(ci *users.CreateInput) { ci.Name = name } }
	zed, _ := in.NewUser(t, "zq", named("Zed Query"))
	exact, _ := in.NewUser(t, "query", named("Amy Q"))
	bob, _ := in.NewUser(t, "bq", named("Bob Query"))
	for _, u := range []*ent.User{zed, exact, bob} {
		in.AddGroupMember(t, g, u, 30)
	}
	for _, path := range []string{gpath(g), gpath(g) + "/all"} {
		assert.Equal(t, []int{exact.ID, bob.ID, zed.ID}, ids(t, in.Do(t, "GET", path+"?query=query", ownerTok, nil)), path)
		assert.Equal(t, []int{owner.ID, zed.ID, exact.ID, bob.ID}, ids(t, in.Do(t, "GET", path, ownerTok, nil)), path)
	}
	r := in.Do(t, "GET", gpath(g)+"?query=query&per_page=1&page=2", ownerTok, nil)
	assert.Equal(t, []int{bob.ID}, ids(t, r), "pages follow the search order")
	assert.Equal(t, "3", r.Header.Get("X-Total"))
}
