package memberapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/user"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestBillableMembers: seats of a top-level group's hierarchy under Ultimate's rules (Guests,
// bots and blocked users take none), with the entity, search, every sort, the memberships of a
// billable user and removal from the whole hierarchy.
func TestBillableMembers(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	root := in.NewGroup(t, "acme", "private", nil)
	sub := in.NewGroup(t, "sub", "private", root)
	proj := in.NewProject(t, sub, "app", "private")
	invited := in.NewGroup(t, "invited", "private", nil)
	owner, ownerTok := in.NewUser(t, "owner")
	maint, maintTok := in.NewUser(t, "maint")
	dev, _ := in.NewUser(t, "dev")
	guest, _ := in.NewUser(t, "guest")
	pdev, _ := in.NewUser(t, "pdev")
	blocked, _ := in.NewUser(t, "blocked")
	bot, _ := in.NewUser(t, "bot")
	inv, _ := in.NewUser(t, "inv")
	invGuest, _ := in.NewUser(t, "invguest")
	_, adminTok := in.NewUser(t, "boss", servertest.Admin)
	in.AddGroupMember(t, root, owner, 50)
	in.AddGroupMember(t, root, maint, 40)
	in.AddGroupMember(t, sub, dev, 30)
	in.AddGroupMember(t, root, guest, 10)
	in.AddProjectMember(t, proj, pdev, 30)
	in.AddProjectMember(t, proj, guest, 10)
	in.AddGroupMember(t, sub, blocked, 30)
	in.AddGroupMember(t, root, bot, 30)
	in.AddGroupMember(t, invited, inv, 30)
	time.Sleep(3 * time.Millisecond) // joined strictly last, for the last_joined sort
	in.AddGroupMember(t, invited, invGuest, 30)
	shareGroup(t, in, sub, invited, 20)
	require.NoError(t, in.DB.Client.User.UpdateOneID(blocked.ID).SetState(user.StateBlocked).Exec(ctx))
	require.NoError(t, in.DB.Client.User.UpdateOneID(bot.ID).SetUserType("project_bot").Exec(ctx))
	require.NoError(t, in.DB.Client.User.UpdateOneID(dev.ID).SetPublicEmail("dev@public.example").
		SetLastActivityOn(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)).
		SetLastSignInAt(time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC)).
		SetCurrentSignInAt(time.Date(2024, 5, 3, 10, 0, 0, 0, time.UTC)).Exec(ctx))
	require.NoError(t, in.DB.Client.User.UpdateOneID(maint.ID).SetLastSignInAt(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)).
		SetLastActivityOn(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)).Exec(ctx))
	// Members of the invited group are capped at the share's Reporter: still above Guest.
	billable := sorted(owner.ID, maint.ID, dev.ID, pdev.ID, inv.ID, invGuest.ID)
	path := "/groups/" + itoa(root.ID) + "/billable_members"

	t.Run("list", func(t *testing.T) {
		r := in.Do(t, "GET", path, ownerTok, nil)
		assert.Equal(t, billable, ids(t, r))
		assert.Equal(t, "6", r.Header.Get("X-Total"))
		byName := map[string]map[string]any{}
		for _, m := range servertest.Decode[[]map[string]any](t, r) {
			byName[m["username"].(string)] = m
		}
		d := byName["dev"]
		assert.Regexp(t, tsRe, d["created_at"])
		delete(d, "created_at")
		assert.Equal(t, map[string]any{
			"id": float64(dev.ID), "username": "dev", "name": "User dev", "state": "active", "locked": false,
			"avatar_url": d["avatar_url"], "web_url": in.URL + "/dev", "email": "dev@public.example",
			"last_activity_on": "2024-05-01", "membership_type": "group_member", "removable": true,
			"is_last_owner": false, "last_login_at": "2024-05-03T10:00:00.000Z",
		}, d)
		assert.Equal(t, "project_member", byName["pdev"]["membership_type"])
		assert.Equal(t, "group_invite", byName["inv"]["membership_type"])
		assert.Equal(t, false, byName["inv"]["removable"])
		assert.Nil(t, byName["inv"]["email"])
		assert.Equal(t, true, byName["owner"]["is_last_owner"])
	})
	t.Run("administrators see emails", func(t *testing.T) {
		r := in.Do(t, "GET", path+"?search=pdev", adminTok, nil)
		list := servertest.Decode[[]map[string]any](t, r)
		require.Len(t, list, 1)
		assert.Equal(t, "pdev@example.com", list[0]["email"])
	})
	t.Run("client-go", func(t *testing.T) {
		list, _, err := in.Client(t, ownerTok).Groups.ListBillableGroupMembers(root.ID, &gitlab.ListBillableGroupMembersOptions{Search: gitlab.Ptr("dev")})
		require.NoError(t, err)
		var got []int
		for _, m := range list {
			got = append(got, int(m.ID))
		}
		assert.Equal(t, sorted(dev.ID, pdev.ID), got)
	})
	t.Run("sorts", func(t *testing.T) {
		for _, tc := range []struct {
			sort  string
			first int
		}{
			{"access_level_desc", owner.ID},
			{"access_level_asc", inv.ID},
			{"name_asc", dev.ID},
			{"name_desc", pdev.ID},
			{"oldest_joined", owner.ID},
			{"last_joined", invGuest.ID},
			{"recent_sign_in", dev.ID},
			{"oldest_sign_in", maint.ID},
			{"last_activity_on_desc", owner.ID}, // the caller: active today through these requests
			{"last_activity_on_asc", maint.ID},
		} {
			got := ids(t, in.Do(t, "GET", path+"?sort="+tc.sort, ownerTok, nil))
			require.Len(t, got, 6, tc.sort)
			assert.Equal(t, tc.first, got[0], tc.sort)
		}
		r := in.Do(t, "GET", path+"?sort=id_desc", ownerTok, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"sort does not have a valid value"}`, string(r.Body))
	})
	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token, path string
			status            int
			body              string
		}{
			{"subgroup", ownerTok, "/groups/" + itoa(sub.ID) + "/billable_members", 400, `{"message":"400 Bad request"}`},
			{"maintainer", maintTok, path, 400, `{"message":"400 Bad request"}`},
			{"anonymous", "", path, 401, `{"message":"401 Unauthorized"}`},
			{"memberships as maintainer", maintTok, path + "/" + itoa(dev.ID) + "/memberships", 400, `{"message":"400 Bad request"}`},
			{"memberships of a non-billable user", ownerTok, path + "/" + itoa(guest.ID) + "/memberships", 404, `{"message":"404 User Not Found"}`},
			{"memberships of an unknown user", ownerTok, path + "/999999/memberships", 404, `{"message":"404 Not found"}`},
		} {
			r := in.Do(t, "GET", tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status, tc.desc)
			assert.JSONEq(t, tc.body, string(r.Body), tc.desc)
		}
		_, strangerTok := in.NewUser(t, "stranger")
		r := in.Do(t, "GET", path, strangerTok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 Group Not Found"}`, string(r.Body))
	})
	t.Run("memberships", func(t *testing.T) {
		in.AddProjectMember(t, proj, dev, 40)
		r := in.Do(t, "GET", path+"/"+itoa(dev.ID)+"/memberships", ownerTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		list := servertest.Decode[[]map[string]any](t, r)
		require.Len(t, list, 2)
		for _, m := range list {
			assert.Regexp(t, tsRe, m["created_at"])
			delete(m, "created_at")
			delete(m, "id")
		}
		assert.Equal(t, []map[string]any{{
			"source_id": float64(sub.ID), "source_full_name": "acme / sub",
			"source_members_url": in.URL + "/groups/acme/sub/-/group_members", "expires_at": nil,
			"access_level": map[string]any{"string_value": "Developer", "integer_value": float64(30), "custom_role": nil},
		}, {
			"source_id": float64(proj.ID), "source_full_name": "acme / sub / app",
			"source_members_url": in.URL + "/acme/sub/app/-/project_members", "expires_at": nil,
			"access_level": map[string]any{"string_value": "Maintainer", "integer_value": float64(40), "custom_role": nil},
		}}, list)
	})
	t.Run("remove", func(t *testing.T) {
		r := in.Do(t, "DELETE", path+"/"+itoa(owner.ID), ownerTok, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"message":"400 Bad request - Gitlab::Access::AccessDeniedError"}`, string(r.Body))
		r = in.Do(t, "DELETE", path+"/"+itoa(dev.ID), maintTok, nil)
		assert.JSONEq(t, `{"message":"400 Bad request - User unauthorized to remove member"}`, string(r.Body))
		r = in.Do(t, "DELETE", "/groups/"+itoa(sub.ID)+"/billable_members/"+itoa(dev.ID), ownerTok, nil)
		assert.JSONEq(t, `{"message":"400 Bad request - Invalid group provided, must be top-level"}`, string(r.Body))
		r = in.Do(t, "DELETE", path+"/"+itoa(inv.ID), ownerTok, nil)
		assert.JSONEq(t, `{"message":"400 Bad request - No member found for the given user_id"}`, string(r.Body))

		_, err := in.Client(t, ownerTok).Groups.RemoveBillableGroupMember(root.ID, int64(dev.ID))
		require.NoError(t, err)
		assert.Equal(t, 0, memberCount(t, in, dev))
		assert.NotContains(t, ids(t, in.Do(t, "GET", path, ownerTok, nil)), dev.ID)
	})
}
