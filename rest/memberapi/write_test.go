package memberapi_test

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMembers_badInput checks GitLab's answers to malformed or conflicting requests.
func TestMembers_badInput(t *testing.T) {
	in := servertest.Start(t)
	parent := in.NewGroup(t, "Parent", "private", nil)
	g := in.NewGroup(t, "grp", "private", parent)
	p := in.NewProject(t, g, "app", "private")
	owner, tok := in.NewUser(t, "owner")
	in.AddGroupMember(t, parent, owner, 50)
	alice, _ := in.NewUser(t, "alice")
	inherited, _ := in.NewUser(t, "inherited")
	in.AddGroupMember(t, parent, inherited, 30)
	past := time.Now().UTC().AddDate(0, 0, -2).Format("2006-01-02")
	future := time.Now().UTC().AddDate(0, 0, 2).Format("2006-01-02")

	for _, tc := range []struct {
		desc, method, path string
		body               any
		status             int
		want               string
	}{
		{"non-integer user_id in the path", "GET", gpath(g) + "/abc", nil, 400, `{"error":"user_id is invalid"}`},
		{"non-integer user_id on PUT", "PUT", gpath(g) + "/abc", `{"access_level":30}`, 400, `{"error":"user_id is invalid"}`},
		{"non-integer user_id on DELETE", "DELETE", ppath(p) + "/abc", nil, 400, `{"error":"user_id is invalid"}`},
		{"unknown member", "GET", gpath(g) + "/" + itoa(alice.ID), nil, 404, `{"message":"404 Not found"}`},
		{"unknown member on PUT", "PUT", gpath(g) + "/999999", `{"access_level":30}`, 404, `{"message":"404 Not found"}`},
		{"unknown member on DELETE", "DELETE", ppath(p) + "/999999", nil, 404, `{"message":"404 Not found"}`},
		{"unknown group", "GET", "/groups/999999/members", nil, 404, `{"message":"404 Group Not Found"}`},
		{"unknown project", "GET", "/projects/999999/members/all", nil, 404, `{"message":"404 Project Not Found"}`},
		{"access_level missing", "POST", gpath(g), `{"user_id":` + itoa(alice.ID) + `}`, 400, `{"error":"access_level is missing"}`},
		{"user missing", "POST", gpath(g), `{"access_level":30}`, 400, `{"error":"user_id, username are missing, at least one parameter must be provided"}`},
		{"user_id and username", "POST", gpath(g), `{"user_id":1,"username":"alice","access_level":30}`, 400, `{"error":"user_id, username are mutually exclusive"}`},
		{"access_level not a number", "POST", gpath(g), `{"user_id":1,"access_level":"high"}`, 400, `{"error":"access_level is invalid"}`},
		{"expires_at not a date", "POST", gpath(g), `{"user_id":1,"access_level":30,"expires_at":"soon"}`, 400, `{"error":"expires_at is invalid"}`},
		{"unknown user", "POST", gpath(g), `{"user_id":999999,"access_level":30}`, 404, `{"message":"404 User Not Found"}`},
		{"user_id=abc", "POST", gpath(g), url.Values{"user_id": {"abc"}, "access_level": {"30"}}, 404, `{"message":"404 User Not Found"}`},
		{"unknown username", "POST", ppath(p), `{"username":"nobody","access_level":30}`, 404, `{"message":"404 User Not Found"}`},
		{"existing member", "POST", gpath(parent), `{"user_id":` + itoa(inherited.ID) + `,"access_level":40}`, 409, `{"message":"Member already exists"}`},
		{"access_level=35", "POST", gpath(g), `{"user_id":` + itoa(alice.ID) + `,"access_level":35}`, 400, `{"message":{"access_level":["is not included in the list"]}}`},
		{"minimal access in a subgroup", "POST", gpath(g), `{"user_id":` + itoa(alice.ID) + `,"access_level":5}`, 400, `{"message":{"access_level":["is not included in the list","supported on top level groups only"]}}`},
		{"minimal access on a project", "POST", ppath(p), `{"user_id":` + itoa(alice.ID) + `,"access_level":5}`, 400, `{"message":{"access_level":["is not included in the list"]}}`},
		{"expires_at in the past", "POST", ppath(p), `{"user_id":` + itoa(alice.ID) + `,"access_level":30,"expires_at":"` + past + `"}`, 400, `{"message":{"expires_at":["cannot be a date in the past"]}}`},
		{"below the inherited level in a subgroup", "POST", gpath(g), `{"user_id":` + itoa(inherited.ID) + `,"access_level":20}`, 400, `{"message":{"access_level":["should be greater than or equal to Developer inherited membership from group Parent"]}}`},
		{"below the inherited level in a project", "POST", ppath(p), `{"user_id":` + itoa(inherited.ID) + `,"access_level":10}`, 400, `{"message":{"access_level":["should be greater than or equal to Developer inherited membership from group Parent"]}}`},
		{"PUT without access_level", "PUT", gpath(parent) + "/" + itoa(inherited.ID), `{}`, 400, `{"error":"access_level is missing"}`},
		{"PUT access_level=25", "PUT", gpath(parent) + "/" + itoa(inherited.ID), `{"access_level":25}`, 400, `{"message":{"access_level":["is not included in the list"]}}`},
		{"PUT expires_at in the past", "PUT", gpath(parent) + "/" + itoa(inherited.ID), `{"access_level":30,"expires_at":"` + past + `"}`, 400, `{"message":{"expires_at":["cannot be a date in the past"]}}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, tc.method, tc.path, tok, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
	t.Run("adding at or above the inherited level, by username, with an expiry", func(t *testing.T) {
		r := in.Do(t, "POST", ppath(p), tok, `{"username":"inherited","access_level":30,"expires_at":"`+future+`"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		m := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, future, m["expires_at"])
		assert.Equal(t, float64(30), m["access_level"])
		r = in.Do(t, "PUT", ppath(p)+"/"+itoa(inherited.ID), tok, `{"access_level":40,"expires_at":null}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Nil(t, servertest.Decode[map[string]any](t, r)["expires_at"])
	})
	t.Run("form-encoded add", func(t *testing.T) {
		r := in.Do(t, "POST", gpath(g), tok, url.Values{"user_id": {itoa(alice.ID)}, "access_level": {"20"}})
		require.Equal(t, http.StatusCreated, r.Status, r.String())
	})
	t.Run("an expired membership can be added again", func(t *testing.T) {
		late, _ := in.NewUser(t, "late")
		in.AddGroupMember(t, g, late, 30)
		expire(t, in, late, time.Now().UTC().AddDate(0, 0, -3))
		r := in.Do(t, "POST", gpath(g), tok, `{"user_id":`+itoa(late.ID)+`,"access_level":20}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, 1, memberCount(t, in, late))
	})
}

// TestMembers_ownerRules: only those who manage owners grant, change or revoke Owner; a group's
// last owner can neither leave nor be demoted; members may leave.
func TestMembers_ownerRules(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "g", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	owner, ownerTok := in.NewUser(t, "owner")
	maint, maintTok := in.NewUser(t, "maint")
	dev, devTok := in.NewUser(t, "dev")
	pOwner, _ := in.NewUser(t, "powner")
	newbie, _ := in.NewUser(t, "newbie")
	in.AddGroupMember(t, g, owner, 50)
	in.AddGroupMember(t, g, maint, 40)
	in.AddGroupMember(t, g, dev, 30)
	in.AddProjectMember(t, p, pOwner, 50)

	step := func(desc, token, method, path string, body any, status int, want string) {
		t.Helper()
		r := in.Do(t, method, path, token, body)
		require.Equal(t, status, r.Status, "%s: %s", desc, r.String())
		if want != "" {
			assert.JSONEq(t, want, string(r.Body), desc)
		}
	}
	forbidden := `{"message":"403 Forbidden"}`
	newbieAs := func(level string) string { return `{"user_id":` + itoa(newbie.ID) + `,"access_level":` + level + `}` }

	step("maintainer cannot grant Owner on a project", maintTok, "POST", ppath(p), newbieAs("50"), 403, forbidden)
	step("maintainer cannot promote to Owner", maintTok, "PUT", ppath(p)+"/"+itoa(pOwner.ID), `{"access_level":50}`, 403, forbidden)
	step("maintainer cannot demote an Owner", maintTok, "PUT", ppath(p)+"/"+itoa(pOwner.ID), `{"access_level":40}`, 403, forbidden)
	step("maintainer cannot remove an Owner", maintTok, "DELETE", ppath(p)+"/"+itoa(pOwner.ID), nil, 403, forbidden)
	step("maintainer adds a Maintainer", maintTok, "POST", ppath(p), newbieAs("40"), 201, "")
	step("maintainer cannot manage group members", maintTok, "POST", gpath(g), newbieAs("30"), 403, forbidden)
	step("owner grants Owner on a project", ownerTok, "PUT", ppath(p)+"/"+itoa(newbie.ID), `{"access_level":50}`, 200, "")
	step("owner grants Owner on a group", ownerTok, "POST", gpath(g), newbieAs("50"), 201, "")

	step("a member may leave", devTok, "DELETE", gpath(g)+"/"+itoa(dev.ID), nil, 204, "")
	step("two owners: one may be demoted", ownerTok, "PUT", gpath(g)+"/"+itoa(newbie.ID), `{"access_level":30}`, 200, "")
	step("last owner cannot be demoted", ownerTok, "PUT", gpath(g)+"/"+itoa(owner.ID), `{"access_level":40}`, 403, forbidden)
	step("last owner cannot leave", ownerTok, "DELETE", gpath(g)+"/"+itoa(owner.ID), nil, 403, forbidden)
	_, adminTok := in.NewUser(t, "boss", servertest.Admin)
	step("not even an administrator removes the last owner", adminTok, "DELETE", gpath(g)+"/"+itoa(owner.ID), nil, 403, forbidden)

	t.Run("a subgroup's only direct owner is not its last owner", func(t *testing.T) {
		sub := in.NewGroup(t, "sub", "private", g)
		in.AddGroupMember(t, sub, newbie, 50)
		step("removed by the parent's owner", ownerTok, "DELETE", gpath(sub)+"/"+itoa(newbie.ID), nil, 204, "")
	})
	t.Run("two owners removing each other at once leave one owner", func(t *testing.T) {
		for i := range 5 {
			grp := in.NewGroup(t, "race"+itoa(i), "private", nil)
			a, aTok := in.NewUser(t, "racea"+itoa(i))
			b, bTok := in.NewUser(t, "raceb"+itoa(i))
			in.AddGroupMember(t, grp, a, 50)
			in.AddGroupMember(t, grp, b, 50)
			statuses := make(chan int, 2)
			var wg sync.WaitGroup
			for _, req := range []struct{ tok, victim string }{{aTok, itoa(b.ID)}, {bTok, itoa(a.ID)}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses <- in.Do(t, "DELETE", gpath(grp)+"/"+req.victim, req.tok, nil).Status
				}()
			}
			wg.Wait()
			close(statuses)
			var got []int
			for st := range statuses {
				got = append(got, st)
			}
			sort.Ints(got)
			// The loser is refused as the last owner, or no longer sees the private group.
			assert.Contains(t, [][]int{{204, 403}, {204, 404}}, got)
			assert.Len(t, levels(t, in.Do(t, "GET", gpath(grp), servertest.RootToken, nil)), 1)
		}
	})
	t.Run("personal project owner cannot be removed", func(t *testing.T) {
		ns := in.PersonalNamespace(t, owner)
		pp := in.NewProject(t, ns, "mine", "private")
		in.AddProjectMember(t, pp, owner, 50)
		step("holder of the personal namespace", ownerTok, "DELETE", ppath(pp)+"/"+itoa(owner.ID), nil, 403, forbidden)
		step("owner adds a member to a personal project", ownerTok, "POST", ppath(pp), newbieAs("30"), 201, "")
	})
}

// TestMembers_bulkAndSubresources covers comma-separated adds, removal of a group member's
// memberships below the group, bots and If-Unmodified-Since.
func TestMembers_bulkAndSubresources(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "g", "private", nil)
	sub := in.NewGroup(t, "sub", "private", g)
	p := in.NewProject(t, sub, "app", "private")
	owner, tok := in.NewUser(t, "owner")
	in.AddGroupMember(t, g, owner, 50)
	a, _ := in.NewUser(t, "a")
	b, _ := in.NewUser(t, "b")

	r := in.Do(t, "POST", gpath(g), tok, `{"user_id":"`+itoa(a.ID)+`,`+itoa(b.ID)+`,999999","access_level":30}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.JSONEq(t, `{"status":"success"}`, string(r.Body))
	assert.Equal(t, map[int]int{owner.ID: 50, a.ID: 30, b.ID: 30}, levels(t, in.Do(t, "GET", gpath(g), tok, nil)))

	r = in.Do(t, "POST", gpath(g), tok, `{"username":"a,b","access_level":40}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.Equal(t, map[int]int{owner.ID: 50, a.ID: 40, b.ID: 40}, levels(t, in.Do(t, "GET", gpath(g), tok, nil)), "existing members are updated")

	r = in.Do(t, "POST", ppath(p), tok, `{"user_id":"`+itoa(a.ID)+`,`+itoa(b.ID)+`","access_level":20}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.JSONEq(t, `{"status":"error","message":"a: Access level should be greater than or equal to Maintainer inherited membership from group g and b: Access level should be greater than or equal to Maintainer inherited membership from group g"}`, string(r.Body))

	in.AddGroupMember(t, sub, a, 50)
	in.AddProjectMember(t, p, a, 50)
	in.AddGroupMember(t, sub, b, 50)
	in.AddProjectMember(t, p, b, 50)
	r = in.Do(t, "DELETE", gpath(g)+"/"+itoa(a.ID)+"?skip_subresources=true", tok, nil)
	require.Equal(t, http.StatusNoContent, r.Status, r.String())
	assert.Equal(t, 2, memberCount(t, in, a))
	r = in.Do(t, "DELETE", gpath(g)+"/"+itoa(b.ID), tok, nil)
	require.Equal(t, http.StatusNoContent, r.Status, r.String())
	assert.Empty(t, r.Body)
	assert.Equal(t, 0, memberCount(t, in, b), "subgroup and project memberships go too")

	t.Run("project bots belong to one place and leave with their token", func(t *testing.T) {
		other := in.NewProject(t, g, "other", "private")
		bot, _ := in.NewUser(t, "project_1_bot")
		_, err := in.DB.Client.User.UpdateOneID(bot.ID).SetUserType("project_bot").Save(context.Background())
		require.NoError(t, err)
		in.AddProjectMember(t, other, bot, 40)
		r := in.Do(t, "POST", ppath(p), tok, `{"user_id":`+itoa(bot.ID)+`,"access_level":50}`)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":{"user_id":["project bots cannot be added to other groups / projects"]}}`, string(r.Body))
		r = in.Do(t, "DELETE", ppath(other)+"/"+itoa(bot.ID), tok, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
		assert.Equal(t, 1, memberCount(t, in, bot))
	})
	t.Run("If-Unmodified-Since", func(t *testing.T) {
		in.AddGroupMember(t, g, b, 30)
		req, err := http.NewRequest("DELETE", in.URL+"/api/v4"+gpath(g)+"/"+itoa(b.ID), nil)
		require.NoError(t, err)
		req.Header.Set("PRIVATE-TOKEN", tok)
		req.Header.Set("If-Unmodified-Since", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusPreconditionFailed, resp.StatusCode)
		assert.Equal(t, 1, memberCount(t, in, b))
	})
}
