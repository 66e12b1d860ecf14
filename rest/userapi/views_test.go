package userapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/nullable"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// basicJSON is the exact UserBasic of u.
func basicJSON(in *servertest.Instance, u *ent.User) string {
	return fmt.Sprintf(`{"id":%d,"username":%q,"name":%q,"state":%q,"locked":false,"avatar_url":%q,"web_url":%q}`,
		u.ID, u.Username, u.Name, u.State, avatar(u.Email), in.URL+"/"+u.Username)
}

// singleFields are the single-user view's fields beyond UserBasic for alice (see TestUsers_views).
func singleFields(u *ent.User, profile bool) string {
	s := fmt.Sprintf(`"bio":"","location":"Berlin","public_email":%q,"skype":"","linkedin":"","twitter":"",
		"discord":"","website_url":"","organization":"Acme","job_title":"Engineer","pronouns":"",
		"bot":false,"work_information":"Engineer at Acme","local_time":null`, u.PublicEmail)
	if profile {
		s += fmt.Sprintf(`,"created_at":%q,"followers":0,"following":0,"is_followed":false`, ts(u.CreatedAt))
	}
	return s
}

func withProfile(in *users.CreateInput) {
	in.Profile.Location, in.Profile.Organization, in.Profile.JobTitle = nullable.Of("Berlin"), nullable.Of("Acme"), nullable.Of("Engineer")
	in.Profile.PublicEmail = nullable.Of(in.Email)
}

func TestUsers_views(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	alice, aliceToken := in.NewUser(t, "alice", withProfile)
	priv, privToken := in.NewUser(t, "priv", func(in *users.CreateInput) { t := true; in.PrivateProfile = &t })
	banned, _ := in.NewUser(t, "banned")
	setState(t, in, banned, user.StateBanned)
	group := in.NewGroup(t, "team", "private", nil)
	in.AddGroupMember(t, group, alice, 30)
	require.NoError(t, in.DB.Client.Identity.Create().SetUserID(alice.ID).SetProvider("github").SetExternUID("42").Exec(ctx))
	alice, err := in.DB.Client.User.Get(ctx, alice.ID)
	require.NoError(t, err)
	ns := in.PersonalNamespace(t, alice)
	root, err := in.DB.Client.User.Get(ctx, 1)
	require.NoError(t, err)

	// last_activity_on is alice's first day of authenticated requests; read when asserting.
	lastActivity := func() string {
		u, err := in.DB.Client.User.Get(ctx, alice.ID)
		require.NoError(t, err)
		if u.LastActivityOn == nil {
			return "null"
		}
		return `"` + u.LastActivityOn.UTC().Format("2006-01-02") + `"`
	}
	publicFieldsAt := fmt.Sprintf(`"last_sign_in_at":null,"confirmed_at":%q,"last_activity_on":%%s,"email":"alice@example.com",
		"theme_id":3,"color_scheme_id":1,"projects_limit":100000,"current_sign_in_at":null,
		"identities":[{"provider":"github","extern_uid":"42"}],"can_create_group":true,"can_create_project":true,
		"two_factor_enabled":false,"external":false,"private_profile":false,"commit_email":"alice@example.com",
		"shared_runners_minutes_limit":null,"extra_shared_runners_minutes_limit":null,"scim_identities":[]`, ts(*alice.ConfirmedAt))
	publicFields := func() string { return fmt.Sprintf(publicFieldsAt, lastActivity()) }
	adminFields := fmt.Sprintf(`"is_admin":false,"note":"","namespace_id":%d,"created_by":null,"current_sign_in_ip":null,
		"last_sign_in_ip":null,"email_reset_offered_at":null,"is_auditor":false,"using_license_seat":true,
		"provisioned_by_group_id":null,"plan":"ultimate","trial":false,"sign_in_count":0`, ns.ID)
	basic := basicJSON(in, alice)
	basicPrefix := basic[:len(basic)-1]

	t.Run("list as a user is UserBasic", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?username=alice", privToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, "["+basic+"]", string(r.Body))
	})
	t.Run("list anonymously by username is UserBasic", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?username=ALICE", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, "["+basic+"]", string(r.Body))
	})
	t.Run("list as an administrator is the admin view", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?username=alice", servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		want := "[" + basicPrefix + "," + singleFields(alice, true) + "," + publicFields() + "," + adminFields + "}]"
		assert.JSONEq(t, want, string(r.Body))
	})
	t.Run("single user as a user", func(t *testing.T) {
		r := in.Do(t, "GET", "/users/"+strconv.Itoa(alice.ID), privToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, basicPrefix+","+singleFields(alice, true)+"}", string(r.Body))
		assert.NotContains(t, servertest.Object(t, r), "email")
	})
	t.Run("private profile hides details from others", func(t *testing.T) {
		r := in.Do(t, "GET", "/users/"+strconv.Itoa(priv.ID), aliceToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		b := basicJSON(in, priv)
		assert.JSONEq(t, b[:len(b)-1]+`,"bio":"","location":"","public_email":"","skype":"","linkedin":"","twitter":"",
			"discord":"","website_url":"","organization":"","job_title":"","pronouns":"","bot":false,
			"work_information":null,"local_time":null}`, string(r.Body))
	})
	t.Run("private profile shows details to its owner", func(t *testing.T) {
		m := servertest.Object(t, in.Do(t, "GET", "/users/"+strconv.Itoa(priv.ID), privToken, nil))
		assert.Equal(t, ts(priv.CreatedAt), m["created_at"])
		assert.Equal(t, 0.0, m["followers"])
	})
	t.Run("single user as an administrator", func(t *testing.T) {
		r := in.Do(t, "GET", "/users/"+strconv.Itoa(alice.ID), servertest.RootToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		want := basicPrefix + "," + singleFields(alice, true) + "," + publicFields() + "," + adminFields + `,"highest_role":30}`
		assert.JSONEq(t, want, string(r.Body))
	})
	t.Run("current user is UserPublic", func(t *testing.T) {
		r := in.Do(t, "GET", "/user", aliceToken, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.JSONEq(t, basicPrefix+","+singleFields(alice, true)+","+publicFields()+"}", string(r.Body))
	})
	t.Run("current administrator is the admin view", func(t *testing.T) {
		m := servertest.Object(t, in.Do(t, "GET", "/user", servertest.RootToken, nil))
		assert.Equal(t, true, m["is_admin"])
		assert.Equal(t, "admin@example.com", m["email"])
		assert.Equal(t, float64(in.PersonalNamespace(t, root).ID), m["namespace_id"])
		assert.NotContains(t, m, "highest_role")
	})
	t.Run("anonymous single user is refused", func(t *testing.T) {
		r := in.Do(t, "GET", "/users/"+strconv.Itoa(alice.ID), "", nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden - Not authorized!"}`, string(r.Body))
	})
	t.Run("banned users are hidden from non-administrators", func(t *testing.T) {
		r := in.Do(t, "GET", "/users/"+strconv.Itoa(banned.ID), aliceToken, nil)
		assert.Equal(t, http.StatusNotFound, r.Status)
		assert.JSONEq(t, `{"message":"404 User Not Found"}`, string(r.Body))
		r = in.Do(t, "GET", "/users/"+strconv.Itoa(banned.ID), servertest.RootToken, nil)
		assert.Equal(t, http.StatusOK, r.Status)
		assert.Equal(t, "banned", servertest.Object(t, r)["state"])
	})
	t.Run("custom attributes for administrators only", func(t *testing.T) {
		require.NoError(t, in.DB.Client.UserCustomAttribute.Create().SetUserID(alice.ID).SetKey("team").SetValue("red").Exec(ctx))
		path := "/users/" + strconv.Itoa(alice.ID) + "?with_custom_attributes=true"
		m := servertest.Object(t, in.Do(t, "GET", path, servertest.RootToken, nil))
		assert.Equal(t, []any{map[string]any{"key": "team", "value": "red"}}, m["custom_attributes"])
		assert.NotContains(t, servertest.Object(t, in.Do(t, "GET", path, privToken, nil)), "custom_attributes")
		assert.NotContains(t, servertest.Object(t, in.Do(t, "GET", "/users/"+strconv.Itoa(alice.ID), servertest.RootToken, nil)), "custom_attributes")
		entries := servertest.List(t, in.Do(t, "GET", "/users?with_custom_attributes=true&username=priv", servertest.RootToken, nil))
		require.Len(t, entries, 1)
		assert.Equal(t, []any{}, entries[0]["custom_attributes"])
		entries = servertest.List(t, in.Do(t, "GET", "/users?with_custom_attributes=true&username=alice", privToken, nil))
		assert.NotContains(t, entries[0], "custom_attributes")
	})
	t.Run("client-go decodes the views", func(t *testing.T) {
		u, _, err := in.Client(t, servertest.RootToken).Users.GetUser(int64(alice.ID), gitlab.GetUsersOptions{})
		require.NoError(t, err)
		assert.Equal(t, "alice@example.com", u.Email)
		assert.Equal(t, int64(ns.ID), u.NamespaceID)
		require.Len(t, u.Identities, 1)
		assert.Equal(t, "github", u.Identities[0].Provider)
		me, _, err := in.Client(t, aliceToken).Users.CurrentUser()
		require.NoError(t, err)
		assert.Equal(t, "Engineer", me.JobTitle)
		list, _, err := in.Client(t, aliceToken).Users.ListUsers(&gitlab.ListUsersOptions{Username: gitlab.Ptr("priv")})
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, int64(priv.ID), list[0].ID)
	})
}
