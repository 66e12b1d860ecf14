package userapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/namespace"
	"anvil/internal/service/users"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// TestUsers_Create checks POST /users: attributes, the administrator view, password rules,
// validation and conflicts.
func TestUsers_Create(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	_, aliceToken := in.NewUser(t, "alice")
	in.NewGroup(t, "teamspace", "private", nil)

	t.Run("every attribute", func(t *testing.T) {
		r := in.Do(t, "POST", "/users", servertest.RootToken, `{"email":" New.User@Example.com ","username":"newbie",
			"name":"New User","password":"secret-pass-1","admin":false,"auditor":true,"external":true,
			"projects_limit":5,"can_create_group":false,"skip_confirmation":true,"bio":"Hi","location":"Paris",
			"public_email":"new.user@example.com","skype":"sk","linkedin":"li","twitter":"tw",
			"discord":"123456789012345678","website_url":"https://example.org","organization":"Org",
			"job_title":"Dev","pronouns":"they/them","note":"vip","theme_id":2,"color_scheme_id":4,
			"private_profile":true,"commit_email":"_private","extern_uid":"u-1","provider":"github"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		id := int(servertest.Object(t, r)["id"].(float64))
		u, err := in.DB.Client.User.Get(ctx, id)
		require.NoError(t, err)
		ns := in.PersonalNamespace(t, u)
		assert.Equal(t, "newbie", ns.FullPath)
		assert.Equal(t, "New User", ns.Name)
		assert.True(t, users.CheckPassword(u, "secret-pass-1"))
		want := fmt.Sprintf(`{"id":%d,"username":"newbie","name":"New User","state":"active","locked":false,
			"avatar_url":%q,"web_url":%q,"created_at":%q,"bio":"Hi","location":"Paris",
			"public_email":"new.user@example.com","skype":"sk","linkedin":"li","twitter":"tw",
			"discord":"123456789012345678","website_url":"https://example.org","organization":"Org","job_title":"Dev",
			"pronouns":"they/them","bot":false,"work_information":"Dev at Org","followers":0,"following":0,
			"is_followed":false,"local_time":null,"last_sign_in_at":null,"confirmed_at":%q,"last_activity_on":null,
			"email":"new.user@example.com","theme_id":2,"color_scheme_id":4,"projects_limit":5,
			"current_sign_in_at":null,"identities":[{"provider":"github","extern_uid":"u-1"}],
			"can_create_group":false,"can_create_project":true,"two_factor_enabled":false,"external":true,
			"private_profile":true,"commit_email":%q,"shared_runners_minutes_limit":null,
			"extra_shared_runners_minutes_limit":null,"scim_identities":[],"is_admin":false,"note":"vip",
			"namespace_id":%d,"created_by":%s,"current_sign_in_ip":null,"last_sign_in_ip":null,
			"email_reset_offered_at":null,"is_auditor":true,"using_license_seat":true,"provisioned_by_group_id":null,
			"plan":"ultimate","trial":false,"sign_in_count":0}`,
			id, avatar("new.user@example.com"), in.URL+"/newbie", ts(u.CreatedAt), ts(*u.ConfirmedAt),
			fmt.Sprintf("%d-newbie@users.noreply.127.0.0.1", id), ns.ID, rootBasic(t, in))
		assert.JSONEq(t, want, string(r.Body))
	})
	t.Run("client-go with reset_password", func(t *testing.T) {
		u, _, err := in.Client(t, servertest.RootToken).Users.CreateUser(&gitlab.CreateUserOptions{
			Email: gitlab.Ptr("gopher@example.com"), Username: gitlab.Ptr("gopher"), Name: gitlab.Ptr("Go Pher"),
			ResetPassword: gitlab.Ptr(true), SkipConfirmation: gitlab.Ptr(false),
		})
		require.NoError(t, err)
		assert.Equal(t, "gopher", u.Username)
		assert.Nil(t, u.ConfirmedAt)
		assert.Equal(t, int64(1), u.CreatedBy.ID)
	})
	t.Run("flags take priority over password", func(t *testing.T) {
		r := in.Do(t, "POST", "/users", servertest.RootToken, `{"email":"rand@example.com","username":"rand","name":"R",
			"password":"x","force_random_password":true}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		u, err := in.Services.Users.FindByRef(ctx, "rand")
		require.NoError(t, err)
		assert.False(t, users.CheckPassword(u, "x"))
	})
	t.Run("administrators only", func(t *testing.T) {
		body := `{"email":"x@example.com","username":"x","name":"X","password":"password-123"}`
		r := in.Do(t, "POST", "/users", aliceToken, body)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
		r = in.Do(t, "POST", "/users", "", body)
		assert.Equal(t, http.StatusUnauthorized, r.Status)
		assert.JSONEq(t, `{"message":"401 Unauthorized"}`, string(r.Body))
	})
	for _, tc := range []struct {
		desc   string
		body   any
		status int
		want   string
	}{
		{"nothing given", `{}`, 400, `{"error":"email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, name is missing, username is missing"}`},
		{"no password flags", `{"email":"p@example.com","username":"p","name":"P","reset_password":false,"force_random_password":false}`, 400, `{"message":{"password":["can't be blank"]}}`},
		{"short password", `{"email":"p@example.com","username":"p","name":"P","password":"short"}`, 400, `{"message":{"password":["is too short (minimum is 8 characters)"]}}`},
		{"common password", `{"email":"p@example.com","username":"p","name":"P","password":"Password123"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"predictable word", `{"email":"p@example.com","username":"p","name":"P","password":"my-GitLab-Q7x"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"own username", `{"email":"p@example.com","username":"penelope","name":"P","password":"Xq7-penelope"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"part of own name", `{"email":"p@example.com","username":"p","name":"Maria Lopez","password":"lopez-Q7x-zz"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"part of own email", `{"email":"kestrel.w@example.com","username":"p","name":"P","password":"Kestrel-Q7x-z"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"taken email ignoring case", `{"email":"ALICE@example.com","username":"p","name":"","password":"x"}`, 409, `{"message":"Email has already been taken"}`},
		{"taken username ignoring case", `{"email":"p@example.com","username":"Alice","name":"P","password":"password-123"}`, 409, `{"message":"Username has already been taken"}`},
		{"username of a group", `{"email":"p@example.com","username":"teamspace","name":"P","password":"password-123"}`, 400, `{"message":{"username":["has already been taken"]}}`},
		{"reserved username", `{"email":"p@example.com","username":"Dashboard","name":"P","password":"Kw9-tallow-Rz4q"}`, 400, `{"message":{"username":["Dashboard is a reserved name"]}}`},
		{"invalid email and username", `{"email":"nope","username":"-bad","name":"P","password":"password-123"}`, 400, `{"message":{"email":["is invalid"],"username":["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.', '.git' or '.atom'."]}}`},
		{"blank name", `{"email":"p@example.com","username":"p","name":" ","password":"password-123"}`, 400, `{"message":{"name":["can't be blank"]}}`},
		{"overlong bio and name", `{"email":"p@example.com","username":"p","name":"` + strings.Repeat("n", 256) + `","password":"password-123","bio":"` + strings.Repeat("b", 256) + `"}`, 400, `{"message":{"bio":["is too long (maximum is 255 characters)"],"name":["is too long (maximum is 255 characters)"]}}`},
		{"overlong pronouns", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","pronouns":"` + strings.Repeat("x", 51) + `"}`, 400, `{"message":{"pronouns":["is too long (maximum is 50 characters)"]}}`},
		{"public email not owned", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","public_email":"other@example.com"}`, 400, `{"message":{"public_email":["must be an email you have verified"]}}`},
		{"commit email not owned", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","commit_email":"other@example.com"}`, 400, `{"message":{"commit_email":["must be an email you have verified"]}}`},
		{"discord not an id", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","discord":"me#1"}`, 400, `{"message":{"discord":["must contain only a discord user ID."]}}`},
		{"negative projects_limit", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","projects_limit":-1}`, 400, `{"message":{"projects_limit":["must be greater than or equal to 0"]}}`},
		{"projects_limit not a number", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","projects_limit":"many"}`, 400, `{"error":"projects_limit is invalid"}`},
		{"admin not a boolean", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","admin":"maybe"}`, 400, `{"error":"admin is invalid"}`},
		{"extern_uid without provider", `{"email":"p@example.com","username":"p","name":"P","password":"password-123","extern_uid":"1"}`, 400, `{"error":"extern_uid, provider provide all or none of parameters"}`},
		{"invalid UTF-8", url.Values{"email": {"p@example.com"}, "username": {"p"}, "name": {"bad\xff"}, "password": {"password-123"}}, 400, `{"error":"name is invalid"}`},
		{"malformed JSON", `{"email":`, 400, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "POST", "/users", servertest.RootToken, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(r.Body))
			}
		})
	}
	t.Run("nothing was created by the refused requests", func(t *testing.T) {
		_, err := in.Services.Users.FindByRef(ctx, "p")
		assert.Error(t, err)
	})
}

// rootBasic is root's UserBasic JSON.
func rootBasic(t *testing.T, in *servertest.Instance) string {
	root, err := in.DB.Client.User.Get(context.Background(), 1)
	require.NoError(t, err)
	return basicJSON(in, root)
}

// TestUsers_Update checks PUT /users/:id.
func TestUsers_Update(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	alice, aliceToken := in.NewUser(t, "alice")
	in.NewUser(t, "bob")
	in.NewGroup(t, "teamspace", "private", nil)
	project := in.NewProject(t, in.PersonalNamespace(t, alice), "tool", "private")
	path := "/users/" + strconv.Itoa(alice.ID)

	t.Run("unchanged email, username and name are accepted", func(t *testing.T) {
		r := in.Do(t, "PUT", path, servertest.RootToken, `{"email":"alice@example.com","username":"alice","name":"User alice","bio":"new bio"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "new bio", m["bio"])
		assert.Equal(t, "alice@example.com", m["email"])
		assert.Equal(t, false, m["is_admin"])
	})
	t.Run("renaming renames the personal namespace", func(t *testing.T) {
		r := in.Do(t, "PUT", path, servertest.RootToken, `{"username":"alice2","name":"Alice Two"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "alice2", m["username"])
		assert.Equal(t, in.URL+"/alice2", m["web_url"])
		ns, err := in.DB.Client.Namespace.Get(ctx, project.NamespaceID)
		require.NoError(t, err)
		assert.Equal(t, []string{"alice2", "alice2", "Alice Two"}, []string{ns.Path, ns.FullPath, ns.Name})
		assert.Equal(t, namespace.KindUser, ns.Kind)
	})
	t.Run("email, password, flags and identity", func(t *testing.T) {
		r := in.Do(t, "PUT", path, servertest.RootToken, `{"email":"Alice2@Example.com","password":"another-pass-9",
			"admin":true,"external":true,"extern_uid":"7","provider":"github","public_email":"alice2@example.com"}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		m := servertest.Object(t, r)
		assert.Equal(t, "alice2@example.com", m["email"])
		assert.Equal(t, "alice2@example.com", m["public_email"])
		assert.Equal(t, true, m["is_admin"])
		assert.Equal(t, []any{map[string]any{"provider": "github", "extern_uid": "7"}}, m["identities"])
		u, err := in.DB.Client.User.Get(ctx, alice.ID)
		require.NoError(t, err)
		assert.True(t, users.CheckPassword(u, "another-pass-9"))
		r = in.Do(t, "PUT", path, servertest.RootToken, `{"extern_uid":"8","provider":"github","admin":false}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []any{map[string]any{"provider": "github", "extern_uid": "8"}}, servertest.Object(t, r)["identities"])
	})
	t.Run("client-go ModifyUser", func(t *testing.T) {
		u, _, err := in.Client(t, servertest.RootToken).Users.ModifyUser(int64(alice.ID), &gitlab.ModifyUserOptions{
			Location: gitlab.Ptr("Oslo"), Name: gitlab.Ptr("Alice Two"),
		})
		require.NoError(t, err)
		assert.Equal(t, "Oslo", u.Location)
	})
	for _, tc := range []struct {
		desc, token, path, body string
		status                  int
		want                    string
	}{
		{"email of another user", servertest.RootToken, path, `{"email":"BOB@example.com"}`, 409, `{"message":"Email has already been taken"}`},
		{"username of another user", servertest.RootToken, path, `{"username":"Bob"}`, 409, `{"message":"Username has already been taken"}`},
		{"username of a group", servertest.RootToken, path, `{"username":"teamspace"}`, 400, `{"message":{"username":["has already been taken"]}}`},
		{"invalid username", servertest.RootToken, path, `{"username":"a..b"}`, 400, `{"message":{"username":["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.', '.git' or '.atom'."]}}`},
		{"overlong note", servertest.RootToken, path, `{"note":"` + strings.Repeat("n", 1001) + `"}`, 400, `{"message":{"note":["is too long (maximum is 1000 characters)"]}}`},
		{"short password", servertest.RootToken, path, `{"password":"abc"}`, 400, `{"message":{"password":["is too short (minimum is 8 characters)"]}}`},
		{"weak password", servertest.RootToken, path, `{"password":"devops-Q7x-zz"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"password with the new username", servertest.RootToken, path, `{"username":"kestrel","password":"Q7x-kestrel"}`, 400, `{"message":{"password":["must not contain commonly used combinations of words and letters"]}}`},
		{"unknown user", servertest.RootToken, "/users/999", `{"bio":"x"}`, 404, `{"message":"404 User Not Found"}`},
		{"not an administrator", aliceToken, path, `{"bio":"x"}`, 403, `{"message":"403 Forbidden"}`},
		{"anonymous", "", path, `{"bio":"x"}`, 401, `{"message":"401 Unauthorized"}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "PUT", tc.path, tc.token, tc.body)
			assert.Equal(t, tc.status, r.Status, r.String())
			assert.JSONEq(t, tc.want, string(r.Body))
		})
	}
}
