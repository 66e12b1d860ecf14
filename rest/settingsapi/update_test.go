package settingsapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/settings"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func put(t *testing.T, in *servertest.Instance, body string) *servertest.Response {
	t.Helper()
	return in.Do(t, "PUT", "/application/settings", servertest.RootToken, body)
}

func get(t *testing.T, in *servertest.Instance) map[string]any {
	t.Helper()
	return settingsOf(t, in.Do(t, "GET", "/application/settings", servertest.RootToken, nil))
}

// validValue is a value a required companion setting accepts, as JSON.
func validValue(f settings.Field) string {
	switch {
	case f.Kind == settings.Int:
		return "60"
	case f.Kind == settings.Float:
		return "1.5"
	case f.Kind == settings.Strings:
		return `["example.com"]`
	case f.URL:
		return `"https://tools.example.com/x"`
	}
	return `"value-of-` + f.Name + `"`
}

func lookup(t *testing.T, name string) settings.Field {
	f, _, ok := settings.Lookup(name)
	require.True(t, ok, name)
	return f
}

// Every flag that requires others: enabling it alone names each missing companion; with them
// it is stored. Flags spelled with the spec's placeholder ask for placeholder companions.
func TestUpdateSettings_dependentAttributes(t *testing.T) {
	in := servertest.Start(t)
	rules := 0
	for _, f := range settings.Fields {
		if len(f.Requires) == 0 {
			continue
		}
		rules++
		t.Run(f.Name, func(t *testing.T) {
			on := "true"
			if f.Kind == settings.String {
				on = `"-----BEGIN CERTIFICATE-----"`
			}
			var missing []string
			for _, r := range f.Requires {
				missing = append(missing, r+" is missing")
			}
			servertest.RequireError(t, put(t, in, fmt.Sprintf(`{%q: %s}`, f.Name, on)),
				http.StatusBadRequest, "error", strings.Join(missing, ", "))

			parts := []string{fmt.Sprintf(`%q: %s`, f.Name, on)}
			for _, r := range f.Requires {
				parts = append(parts, fmt.Sprintf(`%q: %s`, r, validValue(lookup(t, r))))
			}
			m := get(t, in)
			r := put(t, in, "{"+strings.Join(parts, ", ")+"}")
			require.Equal(t, http.StatusOK, r.Status, r.String())
			m = settingsOf(t, r)
			if f.Kind == settings.Bool {
				assert.Equal(t, true, m[f.Name])
			}
			for _, req := range f.Requires {
				if rf := lookup(t, req); !rf.WriteOnly && !rf.NullOnRead && rf.Kind == settings.Int {
					assert.Equal(t, json.Number("60"), m[req], req)
				}
			}
			// Turning the flag off needs nothing else.
			if f.Kind == settings.Bool {
				r = put(t, in, fmt.Sprintf(`{%q: false}`, f.Name))
				require.Equal(t, http.StatusOK, r.Status, r.String())
			}
		})
	}
	assert.GreaterOrEqual(t, rules, 25)

	for _, tc := range []struct{ body, err string }{
		{`{"spamcheck_enabled": true}`, "spamcheck_api_key is missing"},
		{`{"diagramtool1_enabled": true}`, "diagramtool1_url is missing"},
		{`{"diagramtool2_enabled": true}`, "diagramtool2_url is missing"},
		{`{"diagramtool3_enabled": true}`, "diagramtool3_url is missing"},
		{`{"throttle_unauthenticated_web_enabled": true}`, "throttle_unauthenticated_web_period_in_seconds is missing, throttle_unauthenticated_web_requests_per_period is missing"},
		{`{"recaptcha_enabled": true, "recaptcha_site_key": "k"}`, "recaptcha_private_key is missing"},
		{`{"housekeeping_enabled": true}`, "housekeeping_incremental_repack_period, housekeeping_optimize_repository_period are missing, exactly one parameter must be provided"},
		{`{"housekeeping_enabled": true, "housekeeping_incremental_repack_period": 5}`, "housekeeping_full_repack_period, housekeeping_gc_period, housekeeping_incremental_repack_period provide all or none of parameters"},
		{`{"housekeeping_enabled": true, "housekeeping_optimize_repository_period": 5, "housekeeping_incremental_repack_period": 5, "housekeeping_full_repack_period": 5, "housekeeping_gc_period": 5}`, "housekeeping_incremental_repack_period, housekeeping_optimize_repository_period are mutually exclusive"},
	} {
		servertest.RequireError(t, put(t, in, tc.body), http.StatusBadRequest, "error", tc.err)
	}
	m := settingsOf(t, put(t, in, `{"spamcheck_enabled": true, "spamcheck_api_key": "k1"}`))
	assert.Equal(t, true, m["akismet_enabled"])
	assert.Equal(t, "k1", m["akismet_api_key"])
	assert.Equal(t, "k1", m["spamcheck_api_key"])

	m = settingsOf(t, put(t, in, `{"housekeeping_enabled": true, "housekeeping_incremental_repack_period": 7, "housekeeping_full_repack_period": 70, "housekeeping_gc_period": 700}`))
	for _, k := range []string{"housekeeping_optimize_repository_period", "housekeeping_incremental_repack_period", "housekeeping_full_repack_period", "housekeeping_gc_period"} {
		assert.Equal(t, json.Number("7"), m[k], k)
	}
}

// Every deprecated synonym writes its replacement; sent beside it, the deprecated name wins
// (GitLab copies it over).
func TestUpdateSettings_deprecatedSynonyms(t *testing.T) {
	in := servertest.Start(t)
	for syn, real := range settings.Synonyms {
		t.Run(syn, func(t *testing.T) {
			f := lookup(t, real)
			var old, newer, want any
			switch f.Kind {
			case settings.Bool:
				if len(f.Requires) > 0 {
					// Switch it on first (with its companions): the synonym switches it off.
					parts := []string{fmt.Sprintf(`%q: true`, real)}
					for _, r := range f.Requires {
						parts = append(parts, fmt.Sprintf(`%q: %s`, r, validValue(lookup(t, r))))
					}
					settingsOf(t, put(t, in, "{"+strings.Join(parts, ", ")+"}"))
				}
				current := get(t, in)[real].(bool)
				old, newer, want = !current, current, !current
			case settings.Int:
				old, newer, want = 120, 240, json.Number("120")
			case settings.Strings:
				old, newer, want = []string{"old.example"}, []string{"new.example"}, []any{"old.example"}
			default:
				old, newer, want = "old@example.com", "new@example.com", "old@example.com"
			}
			b, _ := json.Marshal(map[string]any{syn: old})
			m := settingsOf(t, put(t, in, string(b)))
			assert.Equal(t, want, m[real])
			if _, echoed := settings.ReadAliases[syn]; echoed {
				assert.Equal(t, want, m[syn])
			}
			b, _ = json.Marshal(map[string]any{syn: old, real: newer})
			m = settingsOf(t, put(t, in, string(b)))
			assert.Equal(t, want, m[real], "the deprecated name wins")
		})
	}

	// default_branch_protection and default_branch_protection_defaults describe one setting.
	levels := func(l ...int) []any {
		out := []any{}
		for _, n := range l {
			out = append(out, map[string]any{"access_level": json.Number(fmt.Sprint(n))})
		}
		return out
	}
	for level, want := range map[int]map[string]any{
		0: {"allowed_to_push": levels(30), "allow_force_push": true, "allowed_to_merge": levels(30)},
		1: {"allowed_to_push": levels(30), "allow_force_push": false, "allowed_to_merge": levels(40)},
		2: {"allowed_to_push": levels(40), "allow_force_push": false, "allowed_to_merge": levels(40)},
		3: {"allowed_to_push": levels(40), "allow_force_push": false, "allowed_to_merge": levels(30)},
		4: {"allowed_to_push": levels(40), "allow_force_push": false, "allowed_to_merge": levels(40), "developer_can_initial_push": true},
	} {
		m := settingsOf(t, put(t, in, fmt.Sprintf(`{"default_branch_protection": %d}`, level)))
		assert.Equal(t, want, m["default_branch_protection_defaults"], level)
		assert.Equal(t, json.Number(fmt.Sprint(level)), m["default_branch_protection"])
	}
	m := settingsOf(t, put(t, in, `{"default_branch_protection_defaults": {"allowed_to_push": [{"access_level": 30}], "allowed_to_merge": [{"access_level": 40}], "allow_force_push": false}}`))
	assert.Equal(t, json.Number("1"), m["default_branch_protection"])
	servertest.RequireError(t, put(t, in, `{"default_branch_protection": 7}`), http.StatusBadRequest, "error", "default_branch_protection does not have a valid value")
	servertest.RequireError(t, put(t, in, `{"default_branch_protection_defaults": {"allowed_to_push": [{"access_level": 35}]}}`),
		http.StatusBadRequest, "error", "default_branch_protection_defaults does not have a valid value")
}

func TestUpdateSettings_roundTrip(t *testing.T) {
	in := servertest.Start(t)
	m := settingsOf(t, put(t, in, `{
		"signup_enabled": false, "default_projects_limit": 12, "default_group_visibility": "internal",
		"restricted_visibility_levels": ["public"], "polling_interval_multiplier": 2.5,
		"repository_storages_weighted": {"default": 40}, "kroki_formats": {"bpmn": true},
		"avatarservice_enabled": false, "concurrent_hosta_import_jobs_limit": 5,
		"assistant_features_enabled": false, "use_colstore_for_analytics": true,
		"external_pipeline_validation_service_token": "s3cret", "asset_proxy_secret_key": "k",
		"outbound_local_requests_whitelist": "10.0.0.1,example.com", "after_sign_out_path": "https://example.com/bye"}`))
	want := map[string]any{
		"signup_enabled": false, "default_projects_limit": json.Number("12"), "default_group_visibility": "internal",
		"restricted_visibility_levels": []any{"public"}, "polling_interval_multiplier": "2.5",
		"repository_storages_weighted": map[string]any{"default": json.Number("40")},
		"kroki_formats":                map[string]any{"bpmn": true},
		"diagramtool3_formats":         map[string]any{"bpmn": true},
		"gravatar_enabled":             false, "avatarservice_enabled": false,
		"concurrent_github_import_jobs_limit": json.Number("5"), "concurrent_hosta_import_jobs_limit": json.Number("5"),
		"duo_features_enabled": false, "assistant_features_enabled": false,
		"use_clickhouse_for_analytics": true, "use_colstore_for_analytics": true,
		"external_pipeline_validation_service_token": nil,
		"outbound_local_requests_whitelist":          []any{"10.0.0.1", "example.com"},
		"after_sign_out_path":                        "https://example.com/bye",
	}
	for k, v := range want {
		assert.Equal(t, v, m[k], k)
	}
	assert.NotContains(t, m, "asset_proxy_secret_key")
	assert.NotContains(t, string(put(t, in, `{"admin_mode": false}`).Body), "s3cret", "secrets are write-only")
	// GET shows the same, and the secret was stored.
	assert.Equal(t, json.Number("12"), get(t, in)["default_projects_limit"])
	var token string
	require.NoError(t, in.Services.Settings.Get(t.Context(), "external_pipeline_validation_service_token", &token))
	assert.Equal(t, "s3cret", token)

	// Form and query parameters, Grape's boolean spellings, comma lists, null clears.
	r := in.Do(t, "PUT", "/application/settings?signup_enabled=yes", servertest.RootToken,
		url.Values{"restricted_visibility_levels": {"10,public"}, "max_login_attempts": {"9"}, "default_group_visibility": {"private"}})
	m = settingsOf(t, r)
	assert.Equal(t, true, m["signup_enabled"])
	assert.Equal(t, []any{"internal", "public"}, m["restricted_visibility_levels"])
	assert.Equal(t, json.Number("9"), m["max_login_attempts"])
	m = settingsOf(t, put(t, in, `{"max_login_attempts": null, "restricted_visibility_levels": null, "after_sign_out_path": null}`))
	assert.Nil(t, m["max_login_attempts"])
	assert.Equal(t, []any{}, m["restricted_visibility_levels"])
	assert.Nil(t, m["after_sign_out_path"])

	// client-go reads and writes the same settings.
	gl := in.Client(t, servertest.RootToken)
	s, _, err := gl.Settings.UpdateSettings(&gitlab.UpdateSettingsOptions{
		SignupEnabled: gitlab.Ptr(false), DefaultSnippetVisibility: gitlab.Ptr(gitlab.InternalVisibility),
		ASCIIDocMaxIncludes: gitlab.Ptr(int64(10)),
	})
	require.NoError(t, err)
	assert.False(t, s.SignupEnabled)
	assert.Equal(t, gitlab.InternalVisibility, s.DefaultSnippetVisibility)
	s, _, err = gl.Settings.GetSettings()
	require.NoError(t, err)
	assert.Equal(t, int64(10), s.ASCIIDocMaxIncludes)
	assert.Equal(t, int64(12), s.DefaultProjectsLimit)
}

func TestUpdateSettings_rulesAndBadInput(t *testing.T) {
	in := servertest.Start(t)
	for _, tc := range []struct {
		body, key, field string
		msg              any
	}{
		{`{"wiki_page_max_content_bytes": 1023}`, "message", "wiki_page_max_content_bytes", "must be greater than or equal to 1024"},
		{`{"asciidoc_max_includes": 65}`, "message", "asciidoc_max_includes", "must be less than or equal to 64"},
		{`{"unconfirmed_users_delete_after_days": 0}`, "message", "unconfirmed_users_delete_after_days", "must be greater than 0"},
		{`{"deletion_adjourned_period": 91}`, "message", "deletion_adjourned_period", "must be less than or equal to 90"},
		{`{"minimum_password_length": 7}`, "message", "minimum_password_length", "must be greater than or equal to 8"},
		{`{"default_projects_limit": -1}`, "message", "default_projects_limit", "must be greater than or equal to 0"},
		{`{"external_authorization_service_timeout": 11}`, "message", "external_authorization_service_timeout", "must be less than or equal to 10"},
		{`{"personal_access_token_prefix": "way-too-long-prefix-123"}`, "message", "personal_access_token_prefix", "is too long (maximum is 20 characters)"},
		{`{"personal_access_token_prefix": "bad prefix"}`, "message", "personal_access_token_prefix", "can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'"},
		{`{"security_txt_content": "` + strings.Repeat("x", 2049) + `"}`, "message", "security_txt_content", "is too long (maximum is 2048 characters)"},
		{`{"plantuml_url": "not a url"}`, "message", "plantuml_url", "must be a valid URL"},
		{`{"repository_storages_weighted": {"nowhere": 10}}`, "message", "repository_storages_weighted", "can't include: nowhere"},
		{`{"repository_storages_weighted": {"default": 101}}`, "message", "repository_storages_weighted", "value for 'default' must be between 0 and 100"},
		{`{"restricted_visibility_levels": ["secret"]}`, "message", "restricted_visibility_levels", "'secret' is not a valid visibility level"},
		{`{"valid_runner_registrars": ["instance"]}`, "message", "valid_runner_registrars", `["instance"] is not included in the list`},
		{`{"restricted_visibility_levels": ["private"]}`, "message", "default_project_visibility", "cannot be set to a restricted visibility level"},
	} {
		r := put(t, in, tc.body)
		require.Equal(t, http.StatusBadRequest, r.Status, tc.body)
		m := servertest.Object(t, r)
		msgs, _ := m[tc.key].(map[string]any)
		assert.Contains(t, msgs[tc.field], tc.msg, r.String())
	}
	for body, msg := range map[string]string{
		`{"signup_enabled": "maybe"}`:                        "signup_enabled is invalid",
		`{"default_projects_limit": "many"}`:                 "default_projects_limit is invalid",
		`{"default_projects_limit": [1]}`:                    "default_projects_limit is invalid",
		`{"polling_interval_multiplier": "fast"}`:            "polling_interval_multiplier is invalid",
		`{"repository_storages_weighted": {"default": "x"}}`: "repository_storages_weighted is invalid",
		`{"repository_storages_weighted": "default"}`:        "repository_storages_weighted is invalid",
		`{"restricted_visibility_levels": {"a": 1}}`:         "restricted_visibility_levels is invalid",
		`{"default_branch_protection_defaults": "x"}`:        "default_branch_protection_defaults is invalid",
		`{"signup_enabled": null}`:                           "signup_enabled is invalid",
		`{"default_project_visibility": "secret"}`:           "default_project_visibility does not have a valid value",
		`{"whats_new_variant": "some"}`:                      "whats_new_variant does not have a valid value",
		`{"rsa_key_restriction": 1000}`:                      "rsa_key_restriction does not have a valid value",
		`{"unknown_setting": 1}`:                             "are missing, at least one parameter must be provided",
	} {
		r := put(t, in, body)
		require.Equal(t, http.StatusBadRequest, r.Status, body+" "+r.String())
		assert.Contains(t, servertest.Object(t, r)["error"], msg, body)
	}
	// Nothing of the refused changes was written.
	m := get(t, in)
	assert.Equal(t, json.Number("52428800"), m["wiki_page_max_content_bytes"])
	assert.Equal(t, []any{}, m["restricted_visibility_levels"])
	assert.Equal(t, "glpat-", m["personal_access_token_prefix"])
}

// Every accepted parameter answers a value of the wrong shape with 400 naming it, never 500.
func TestUpdateSettings_everyParameterRejectsWrongShapes(t *testing.T) {
	in := servertest.Start(t)
	for _, name := range settings.InputNames() {
		r := put(t, in, fmt.Sprintf(`{%q: [[1]]}`, name))
		require.Equal(t, http.StatusBadRequest, r.Status, name+" "+r.String())
		assert.Equal(t, map[string]any{"error": name + " is invalid"}, servertest.Object(t, r), name)
	}
}
