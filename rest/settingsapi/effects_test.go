package settingsapi_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"
	"anvil/internal/service/settings"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A non-administrator may not create or move a project or group to a restricted level; an
// administrator may, and levels left open stay open.
func TestRestrictedVisibilityLevels_effect(t *testing.T) {
	in := servertest.Start(t)
	alice, tok := in.NewUser(t, "alice")
	group := in.NewGroup(t, "team", "public", nil)
	in.AddGroupMember(t, group, alice, 50)
	proj := in.NewProject(t, in.PersonalNamespace(t, alice), "tool", "private")
	in.AddProjectMember(t, proj, alice, 50)
	settingsOf(t, put(t, in, `{"restricted_visibility_levels": ["public", "internal"]}`))

	restricted := func(level string) map[string]any {
		return map[string]any{"message": map[string]any{"visibility_level": []any{level + " has been restricted by your GitLab administrator"}}}
	}
	for _, tc := range []struct {
		method, path, body, level string
	}{
		{"POST", "/projects", `{"name": "web", "visibility": "public"}`, "Public"},
		{"POST", "/projects", `{"name": "web", "visibility": "internal"}`, "Internal"},
		{"PUT", "/projects/" + itoa(proj.ID), `{"visibility": "public"}`, "Public"},
		{"POST", "/groups", `{"name": "ops", "path": "ops", "visibility": "internal"}`, "Internal"},
		{"POST", "/groups", `{"name": "sub", "path": "sub", "parent_id": ` + itoa(group.ID) + `, "visibility": "public"}`, "Public"},
		{"PUT", "/groups/" + itoa(group.ID), `{"visibility": "internal"}`, "Internal"},
	} {
		r := in.Do(t, tc.method, tc.path, tok, tc.body)
		require.Equal(t, http.StatusBadRequest, r.Status, tc.path+" "+r.String())
		want := restricted(tc.level)
		if tc.method == "POST" && tc.path == "/groups" {
			// GitLab's group creation renders its model errors inside one sentence.
			want = map[string]any{"message": `Failed to save group {:visibility_level=>["` + tc.level +
				` has been restricted by your GitLab administrator"]}`}
		}
		assert.Equal(t, want, servertest.Object(t, r), tc.path)
	}
	// Private is open; an unchanged restricted level is no change; administrators pass.
	r := in.Do(t, "POST", "/projects", tok, `{"name": "web", "visibility": "private"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = in.Do(t, "PUT", "/groups/"+itoa(group.ID), tok, `{"visibility": "public", "description": "d"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	r = in.Do(t, "POST", "/projects", servertest.RootToken, `{"name": "site", "visibility": "public"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	r = in.Do(t, "POST", "/groups", servertest.RootToken, `{"name": "pub", "path": "pub", "visibility": "public"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
}

// New accounts take default_projects_limit, user_default_external (with the internal regex),
// user_defaults_to_private_profile and can_create_group unless the request sets them.
func TestUserDefaults_effect(t *testing.T) {
	in := servertest.Start(t)
	settingsOf(t, put(t, in, `{"default_projects_limit": 3, "user_default_external": true,
		"user_default_internal_regex": "@corp\\.example$", "user_defaults_to_private_profile": true, "can_create_group": false}`))
	create := func(body string) map[string]any {
		r := in.Do(t, "POST", "/users", servertest.RootToken, body)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return servertest.Object(t, r)
	}
	u := create(`{"username": "ext", "name": "Ext", "email": "ext@elsewhere.example", "password": "Quartz-Lamp-91x"}`)
	assert.Equal(t, 3.0, u["projects_limit"])
	assert.Equal(t, true, u["external"])
	assert.Equal(t, true, u["private_profile"])
	assert.Equal(t, false, u["can_create_group"])
	u = create(`{"username": "staff", "name": "Staff", "email": "staff@corp.example", "password": "Quartz-Lamp-91x"}`)
	assert.Equal(t, false, u["external"], "the internal regex keeps corporate addresses internal")
	u = create(`{"username": "own", "name": "Own", "email": "own@elsewhere.example", "password": "Quartz-Lamp-91x",
		"projects_limit": 9, "external": false, "can_create_group": true}`)
	assert.Equal(t, 9.0, u["projects_limit"])
	assert.Equal(t, false, u["external"])
	assert.Equal(t, true, u["can_create_group"])
}

// Personal access tokens take the configured prefix.
func TestPersonalAccessTokenPrefix_effect(t *testing.T) {
	in := servertest.Start(t)
	settingsOf(t, put(t, in, `{"personal_access_token_prefix": "acme-"}`))
	alice, _ := in.NewUser(t, "alice")
	r := in.Do(t, "POST", "/users/"+itoa(alice.ID)+"/personal_access_tokens", servertest.RootToken,
		`{"name": "ci", "scopes": ["api"], "expires_at": "`+time.Now().AddDate(0, 1, 0).Format("2006-01-02")+`"}`)
	require.Equal(t, http.StatusCreated, r.Status, r.String())
	assert.Regexp(t, `^acme-`, servertest.Object(t, r)["token"])
}

// New repositories go where repository_storages_weighted sends them, from the next project on.
func TestRepositoryStoragesWeighted_effect(t *testing.T) {
	dir := t.TempDir()
	roots := map[string]string{"default": filepath.Join(dir, "a"), "second": filepath.Join(dir, "b")}
	in := servertest.Start(t, func(c *config.Config) { c.RepositoryStorages = roots })
	m := get(t, in)
	assert.Equal(t, map[string]any{"default": json.Number("100"), "second": json.Number("0")}, m["repository_storages_weighted"])

	m = settingsOf(t, put(t, in, `{"repository_storages_weighted": {"default": 0, "second": 100}}`))
	assert.Equal(t, map[string]any{"default": json.Number("0"), "second": json.Number("100")}, m["repository_storages_weighted"])
	for _, name := range []string{"one", "two", "three"} {
		r := in.Do(t, "POST", "/projects", servertest.RootToken, `{"name": "`+name+`"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		assert.Equal(t, "second", servertest.Object(t, r)["repository_storage"], name)
	}
}

// The replica that writes sees the change at once; another replica keeps its cached value for
// at most the cache lifetime (GitLab's 60 seconds, shortened here).
func TestSettingsCache_otherReplica(t *testing.T) {
	in := servertest.Start(t)
	assert.Equal(t, 60*time.Second, settings.CacheTTL)
	other := settings.New(in.DB.Client, "default")
	assert.Equal(t, "glpat-", other.String(t.Context(), "personal_access_token_prefix"))

	settingsOf(t, put(t, in, `{"personal_access_token_prefix": "next-"}`))
	assert.Equal(t, "next-", in.Services.Settings.String(t.Context(), "personal_access_token_prefix"), "the writer invalidates at once")
	assert.Equal(t, "glpat-", other.String(t.Context(), "personal_access_token_prefix"), "another replica serves its cache")

	other.SetCacheTTL(20 * time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	assert.Equal(t, "next-", other.String(t.Context(), "personal_access_token_prefix"), "and reloads after the lifetime")
}

func itoa(n int) string { return strconv.Itoa(n) }
