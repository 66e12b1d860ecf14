package settingsapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// settingsOf decodes a settings response keeping numbers as written (1 vs 1.0).
func settingsOf(t *testing.T, r *servertest.Response) map[string]any {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, r.String())
	d := json.NewDecoder(bytes.NewReader(r.Body))
	d.UseNumber()
	var m map[string]any
	require.NoError(t, d.Decode(&m))
	return m
}

func TestGetSettings_defaultsAndShape(t *testing.T) {
	in := servertest.Start(t)
	m := settingsOf(t, in.Do(t, "GET", "/application/settings", servertest.RootToken, nil))

	want := map[string]any{
		"id":                                               json.Number("1"),
		"default_projects_limit":                           json.Number("100000"),
		"signup_enabled":                                   true,
		"default_branch_protection":                        json.Number("2"),
		"restricted_visibility_levels":                     []any{},
		"password_authentication_enabled_for_web":          true,
		"signin_enabled":                                   true,
		"password_authentication_enabled":                  true,
		"after_sign_out_path":                              nil,
		"max_attachment_size":                              json.Number("100"),
		"session_expire_delay":                             json.Number("10080"),
		"home_page_url":                                    nil,
		"default_snippet_visibility":                       "private",
		"default_project_visibility":                       "private",
		"default_group_visibility":                         "private",
		"outbound_local_requests_whitelist":                []any{},
		"domain_allowlist":                                 []any{},
		"domain_denylist_enabled":                          false,
		"domain_denylist":                                  []any{},
		"gravatar_enabled":                                 true,
		"avatarservice_enabled":                            true,
		"container_registry_token_expire_delay":            json.Number("5"),
		"repository_storages_weighted":                     map[string]any{"default": json.Number("100")},
		"plantuml_enabled":                                 false,
		"plantuml_url":                                     nil,
		"diagramtool1_enabled":                             false,
		"diagramtool1_url":                                 nil,
		"diagramsnet_enabled":                              true,
		"diagramtool2_enabled":                             true,
		"diagramtool2_url":                                 "https://embed.diagrams.net",
		"kroki_enabled":                                    false,
		"diagramtool3_enabled":                             false,
		"diagramtool3_url":                                 nil,
		"terminal_max_session_time":                        json.Number("0"),
		"polling_interval_multiplier":                      "1.0",
		"rsa_key_restriction":                              json.Number("0"),
		"dsa_key_restriction":                              json.Number("0"),
		"ecdsa_sk_key_restriction":                         json.Number("0"),
		"first_day_of_week":                                json.Number("0"),
		"enforce_terms":                                    false,
		"terms":                                            nil,
		"performance_bar_allowed_group_id":                 nil,
		"user_show_add_ssh_key_message":                    true,
		"local_markdown_version":                           json.Number("0"),
		"allow_local_requests_from_hooks_and_services":     false,
		"allow_local_requests_from_web_hooks_and_services": false,
		"allow_local_requests_from_system_hooks":           true,
		"asset_proxy_allowlist":                            []any{},
		"asset_proxy_whitelist":                            []any{},
		"snippet_size_limit":                               json.Number("52428800"),
		"wiki_page_max_content_bytes":                      json.Number("52428800"),
		"asciidoc_max_includes":                            json.Number("32"),
		"personal_access_token_prefix":                     "glpat-",
		"require_admin_approval_after_user_signup":         true,
		"require_personal_access_token_expiry":             true,
		"keep_latest_artifact":                             true,
		"admin_mode":                                       false,
		"floc_enabled":                                     false,
		"external_pipeline_validation_service_token":       nil,
		"external_authorization_service_timeout":           json.Number("0.5"),
		"jira_connect_application_key":                     nil,
		"tracker_connect_application_key":                  nil,
		"tracker_connect_public_key_storage_enabled":       false,
		"tracker_connect_proxy_url":                        nil,
		"concurrent_github_import_jobs_limit":              json.Number("1000"),
		"concurrent_hosta_import_jobs_limit":               json.Number("1000"),
		"concurrent_hostb_import_jobs_limit":               json.Number("100"),
		"concurrent_hostb_server_import_jobs_limit":        json.Number("100"),
		"spamcheck_enabled":                                false,
		"spamcheck_api_key":                                nil,
		"akismet_enabled":                                  false,
		"can_create_group":                                 true,
		"user_defaults_to_private_profile":                 false,
		"projects_api_rate_limit_unauthenticated":          json.Number("400"),
		"globally_allowed_ips":                             "",
		"valid_runner_registrars":                          []any{"project", "group"},
		"whats_new_variant":                                "all_tiers",
		"unconfirmed_users_delete_after_days":              json.Number("7"),
		"delete_unconfirmed_users":                         false,
		"deletion_adjourned_period":                        json.Number("30"),
		"geo_node_allowed_ips":                             "0.0.0.0/0, ::/0",
		"assistant_features_enabled":                       true,
		"lock_assistant_features_enabled":                  false,
		"duo_features_enabled":                             true,
		"use_colstore_for_analytics":                       false,
		"use_clickhouse_for_analytics":                     false,
		"throttle_unauthenticated_web_enabled":             false,
		"throttle_unauthenticated_web_period_in_seconds":   json.Number("3600"),
		"throttle_unauthenticated_web_requests_per_period": json.Number("3600"),
		"housekeeping_bitmaps_enabled":                     true,
		"housekeeping_incremental_repack_period":           json.Number("50"),
		"default_branch_protection_defaults": map[string]any{
			"allowed_to_push":  []any{map[string]any{"access_level": json.Number("40")}},
			"allow_force_push": false,
			"allowed_to_merge": []any{map[string]any{"access_level": json.Number("40")}},
		},
	}
	for key, v := range want {
		assert.Equal(t, v, m[key], key)
		assert.Contains(t, m, key)
	}
	for _, secret := range []string{"asset_proxy_secret_key", "eks_secret_access_key", "external_auth_client_key", "external_auth_client_key_pass"} {
		assert.NotContains(t, m, secret)
	}
	created, err := time.Parse(time.RFC3339, m["created_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), created, time.Minute)
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, m["updated_at"])
}

func TestSettings_permissions(t *testing.T) {
	in := servertest.Start(t)
	_, tok := in.NewUser(t, "bob")
	for _, method := range []string{"GET", "PUT"} {
		body := ""
		if method == "PUT" {
			body = `{"signup_enabled": false}`
		}
		var b any
		if body != "" {
			b = body
		}
		servertest.RequireError(t, in.Do(t, method, "/application/settings", "", b), http.StatusUnauthorized, "message", "401 Unauthorized")
		servertest.RequireError(t, in.Do(t, method, "/application/settings", tok, b), http.StatusForbidden, "message", "403 Forbidden")
	}
	m := settingsOf(t, in.Do(t, "GET", "/application/settings", servertest.RootToken, nil))
	assert.Equal(t, true, m["signup_enabled"], "a refused PUT changes nothing")
}

// python-gitlab 3.x compares Content-Type with == "application/json" and hands back the raw
// response otherwise, so GET and PUT must send the bare type, without a charset.
func TestSettings_contentTypeIsBareJSON(t *testing.T) {
	in := servertest.Start(t)
	r := in.Do(t, "GET", "/application/settings", servertest.RootToken, nil)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	r = in.Do(t, "PUT", "/application/settings", servertest.RootToken, `{"default_projects_limit": 42}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
}
