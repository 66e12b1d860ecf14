package userapi_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/user"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsers_List_filters checks every GET /users filter, for ordinary callers and administrators.
func TestUsers_List_filters(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	c := in.DB.Client
	alice, aliceToken := in.NewUser(t, "alice", withPublicEmail)
	bob, _ := in.NewUser(t, "bob", servertest.External)
	carol, _ := in.NewUser(t, "carol")
	setState(t, in, carol, user.StateBlocked)
	dave, _ := in.NewUser(t, "dave")
	setState(t, in, dave, user.StateDeactivated)
	erin, _ := in.NewUser(t, "erin")
	setState(t, in, erin, user.StateBanned)
	frank, _ := in.NewUser(t, "frank")
	setState(t, in, frank, user.StateBlockedPendingApproval)
	in.NewUser(t, "botty", withType("project_bot"))
	in.NewUser(t, "helper", withType("support_bot"))
	twofa, _ := in.NewUser(t, "twofa")
	require.NoError(t, c.User.UpdateOneID(twofa.ID).SetTwoFactorEnabled(true).SetAuditor(true).Exec(ctx))
	in.NewUser(t, "boss", servertest.Admin)
	old, _ := in.NewUser(t, "old")
	setCreatedAt(t, in, old, time.Date(2001, 1, 2, 0, 0, 0, 0, time.UTC))
	require.NoError(t, c.Identity.Create().SetUserID(alice.ID).SetProvider("github").SetExternUID("1234").Exec(ctx))
	require.NoError(t, c.Identity.Create().SetUserID(bob.ID).SetProvider("ldapmain").SetExternUID("uid=bob").Exec(ctx))
	require.NoError(t, c.Identity.Create().SetUserID(carol.ID).SetProvider("group_saml").SetExternUID("c").SetSamlProviderID(7).Exec(ctx))
	require.NoError(t, c.UserCustomAttribute.Create().SetUserID(bob.ID).SetKey("department").SetValue("eng").Exec(ctx))
	require.NoError(t, c.UserCustomAttribute.Create().SetUserID(carol.ID).SetKey("department").SetValue("ops").Exec(ctx))
	in.NewProject(t, in.PersonalNamespace(t, alice), "tool", "private")
	group := in.NewGroup(t, "team", "private", nil)
	sub := in.NewGroup(t, "sub", "private", group)
	in.NewProject(t, sub, "app", "private")
	in.AddGroupMember(t, group, bob, 30)
	shared := in.NewGroup(t, "shared", "private", nil)
	require.NoError(t, c.ProjectGroupLink.Create().SetProjectID(in.NewProject(t, shared, "lib", "private").ID).
		SetGroupID(in.NewGroup(t, "guests", "private", nil).ID).SetGroupAccess(30).Exec(ctx))
	guests, err := in.Services.Groups.Lookup(ctx, "guests")
	require.NoError(t, err)
	in.AddGroupMember(t, guests, dave, 10)

	// Everyone in creation order; lists are newest first.
	all := []string{"root", "alice", "bob", "carol", "dave", "erin", "frank", "botty", "helper", "twofa", "boss", "old"}
	visible := without(all, "carol", "erin") // GitLab hides blocked, banned and LDAP-blocked users from non-administrators
	desc := func(names ...string) []string {
		out := slices.Clone(names)
		slices.SortFunc(out, func(a, b string) int { return slices.Index(all, b) - slices.Index(all, a) })
		return out
	}
	for _, tc := range []struct {
		desc, query string
		admin       bool
		want        []string
	}{
		{"no filter hides blocked and banned users", "", false, visible},
		{"no filter for administrators", "", true, all},
		{"username is exact and case-insensitive", "username=ALICE", false, []string{"alice"}},
		{"username is not a prefix", "username=ali", false, nil},
		{"search by username substring", "search=lic", false, []string{"alice"}},
		{"search needs every word", "search=bob+User", false, []string{"bob"}},
		{"search with a short query is exact", "search=bo", false, nil},
		{"search drops a leading @", "search=%40old", false, []string{"old"}},
		{"search by full public email", "search=alice%40example.com", false, []string{"alice"}},
		{"search by partial email finds nothing", "search=alice%40example", false, nil},
		{"search by private email is for administrators", "search=bob%40example.com", false, nil},
		{"administrators search private emails", "search=BOB%40example.com", true, []string{"bob"}},
		{"active", "active=true", false, without(visible, "dave", "frank", "helper")},
		{"active=false is no filter", "active=false", false, visible},
		{"blocked users are hidden from users", "blocked=true", false, nil},
		{"blocked for administrators", "blocked=true", true, []string{"carol"}},
		{"blocked=false is no filter", "blocked=false", false, visible},
		{"external", "external=true", false, []string{"bob"}},
		{"external=false is no filter", "external=false", false, visible},
		{"exclude_external", "exclude_external=true", false, without(visible, "bob")},
		{"exclude_active", "exclude_active=true", false, []string{"dave", "frank"}},
		{"exclude_active for administrators", "exclude_active=true", true, []string{"carol", "dave", "erin", "frank"}},
		{"humans", "humans=true", false, without(visible, "botty", "helper")},
		{"exclude_humans", "exclude_humans=true", false, []string{"botty", "helper"}},
		{"exclude_internal", "exclude_internal=true", false, without(visible, "helper")},
		{"without_project_bots", "without_project_bots=true", false, without(visible, "botty")},
		{"created_after", "created_after=2020-01-01T00:00:00Z", false, without(visible, "old")},
		{"created_before", "created_before=2001-01-02T00:00:00.000Z", false, []string{"old"}},
		{"created range", "created_after=2001-01-01&created_before=2001-01-03", false, []string{"old"}},
		// For administrators no state filter is added: the date bound is the whole WHERE clause.
		{"created_after alone for administrators", "created_after=2020-01-01T00:00:00Z", true, without(all, "old")},
		{"created_before alone for administrators", "created_before=2001-01-02", true, []string{"old"}},
		{"admins for administrators", "admins=true", true, []string{"root", "boss"}},
		{"admins ignored for users", "admins=true", false, visible},
		{"auditors", "auditors=true", true, []string{"twofa"}},
		{"two_factor enabled", "two_factor=enabled", true, []string{"twofa"}},
		{"two_factor disabled", "two_factor=disabled", true, without(all, "twofa")},
		{"two_factor ignored for users", "two_factor=enabled", false, visible},
		{"without_projects", "without_projects=true", true, without(all, "alice", "bob", "dave")},
		{"without_projects ignored for users", "without_projects=true", false, visible},
		{"extern_uid and provider", "extern_uid=1234&provider=github", true, []string{"alice"}},
		{"saml_provider_id", "saml_provider_id=7", true, []string{"carol"}},
		{"saml_provider_id ignored for users", "saml_provider_id=7", false, visible},
		{"skip_ldap", "skip_ldap=true", true, without(all, "bob")},
		{"custom attribute", "custom_attributes%5Bdepartment%5D=eng", true, []string{"bob"}},
		{"custom attribute ignored for users", "custom_attributes%5Bdepartment%5D=eng", false, visible},
		{"filters combine", "active=true&humans=true&exclude_external=true&search=oss", true, []string{"boss"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			token := aliceToken
			if tc.admin {
				token = servertest.RootToken
			}
			got := usernames(t, in, "/users?per_page=100&"+tc.query, token)
			want := desc(tc.want...)
			if tc.want == nil {
				want = []string{}
			}
			assert.Equal(t, want, got)
		})
	}

	t.Run("anonymous callers must give a username", func(t *testing.T) {
		r := in.Do(t, "GET", "/users", "", nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden - Not authorized to access /api/v4/users"}`, string(r.Body))
		assert.Equal(t, []string{"bob"}, usernames(t, in, "/users?username=bob", ""))
		assert.Equal(t, []string{}, usernames(t, in, "/users?username=erin", ""))
	})
	t.Run("extern_uid needs an administrator", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?extern_uid=1234&provider=github", aliceToken, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
		r = in.Do(t, "GET", "/users?extern_uid=1234&provider=github&username=alice", "", nil)
		assert.Equal(t, http.StatusUnauthorized, r.Status)
	})
	t.Run("parameter errors", func(t *testing.T) {
		for _, tc := range []struct{ query, body string }{
			{"extern_uid=1234", `{"error":"extern_uid, provider provide all or none of parameters"}`},
			{"active=maybe", `{"error":"active is invalid"}`},
			{"created_after=yesterday", `{"error":"created_after is invalid"}`},
			{"saml_provider_id=x", `{"error":"saml_provider_id is invalid"}`},
			{"custom_attributes=x", `{"error":"custom_attributes is invalid"}`},
			{"search=%FF", `{"error":"search is invalid"}`},
			{"username=%C3%28", `{"error":"username is invalid"}`},
		} {
			r := in.Do(t, "GET", "/users?"+tc.query, aliceToken, nil)
			assert.Equal(t, http.StatusBadRequest, r.Status, tc.query)
			assert.JSONEq(t, tc.body, string(r.Body), tc.query)
		}
	})
	t.Run("search relevance puts exact matches first", func(t *testing.T) {
		in.NewUser(t, "sam", func(in *users.CreateInput) { in.Name = "Zed Sam" })
		in.NewUser(t, "samuel", func(in *users.CreateInput) { in.Name = "Amy Samuel" })
		in.NewUser(t, "other", func(in *users.CreateInput) { in.Name = "sam" })
		assert.Equal(t, []string{"sam", "other", "samuel"}, usernames(t, in, "/users?search=Sam", aliceToken))
		assert.Equal(t, []string{"other", "samuel", "sam"}, usernames(t, in, "/users?search=Sam&order_by=id", servertest.RootToken))
	})
}

// without returns names minus drop.
func without(names []string, drop ...string) []string {
	out := []string{}
	for _, n := range names {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	return out
}

// TestUsers_List_order checks order_by and sort, which only administrators may choose.
func TestUsers_List_order(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	names := map[string]string{"mike": "b mike", "anna": "c anna", "zoe": "a zoe"}
	_, token := in.NewUser(t, "mike", func(in *users.CreateInput) { in.Name = names["mike"] })
	in.NewUser(t, "anna", func(in *users.CreateInput) { in.Name = names["anna"] })
	in.NewUser(t, "zoe", func(in *users.CreateInput) { in.Name = names["zoe"] })
	mike, err := in.Services.Users.FindByRef(ctx, "mike")
	require.NoError(t, err)
	require.NoError(t, in.DB.Client.User.UpdateOneID(mike.ID).SetUpdatedAt(time.Now().Add(time.Hour)).Exec(ctx))
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"", "zoe anna mike root"},
		{"order_by=id&sort=asc", "root mike anna zoe"},
		{"sort=asc", "root mike anna zoe"},
		{"order_by=name&sort=asc", "root zoe mike anna"},
		{"order_by=name", "anna mike zoe root"},
		{"order_by=username&sort=asc", "anna mike root zoe"},
		{"order_by=username&sort=desc", "zoe root mike anna"},
		{"order_by=created_at&sort=asc", "root mike anna zoe"},
		{"order_by=updated_at&sort=asc", "root anna zoe mike"},
		{"order_by=updated_at", "mike zoe anna root"},
	} {
		t.Run("admin "+tc.query, func(t *testing.T) {
			got := usernames(t, in, "/users?"+tc.query, servertest.RootToken)
			assert.Equal(t, strings.Fields(tc.want), got)
		})
	}
	t.Run("ordering is ignored for other callers", func(t *testing.T) {
		assert.Equal(t, []string{"zoe", "anna", "mike", "root"}, usernames(t, in, "/users?order_by=username&sort=asc", token))
	})
	t.Run("invalid values", func(t *testing.T) {
		r := in.Do(t, "GET", "/users?order_by=email", token, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"order_by does not have a valid value"}`, string(r.Body))
		r = in.Do(t, "GET", "/users?sort=up", servertest.RootToken, nil)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"sort does not have a valid value"}`, string(r.Body))
	})
}
