package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAliases_placeholderSpellings(t *testing.T) {
	for real, alias := range map[string]string{
		"gravatar_enabled":                              "avatarservice_enabled",
		"akismet_api_key":                               "spamcheck_api_key",
		"plantuml_url":                                  "diagramtool1_url",
		"diagramsnet_enabled":                           "diagramtool2_enabled",
		"kroki_url":                                     "diagramtool3_url",
		"jira_connect_proxy_url":                        "tracker_connect_proxy_url",
		"concurrent_github_import_jobs_limit":           "concurrent_hosta_import_jobs_limit",
		"concurrent_bitbucket_server_import_jobs_limit": "concurrent_hostb_server_import_jobs_limit",
		"lock_duo_features_enabled":                     "lock_assistant_features_enabled",
		"use_clickhouse_for_analytics":                  "use_colstore_for_analytics",
	} {
		assert.Equal(t, alias, byName[real].Alias, real)
		f, deprecated, ok := Lookup(alias)
		require.True(t, ok, alias)
		assert.False(t, deprecated)
		assert.Equal(t, real, f.Name)
	}
	assert.Empty(t, byName["spam_check_api_key"].Alias, "GitLab's own spam check keeps its name")
}

func TestFields_tableIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Fields {
		assert.False(t, seen[f.Name], "duplicate %s", f.Name)
		seen[f.Name] = true
		for _, r := range f.Requires {
			assert.Contains(t, byName, r, "%s requires an unknown setting", f.Name)
		}
		if f.Alias != "" {
			assert.NotContains(t, byName, f.Alias, "alias %s shadows a setting", f.Alias)
		}
	}
	for syn, real := range Synonyms {
		assert.Contains(t, byName, real, syn)
		assert.NotContains(t, byName, syn, "synonym %s is also a setting", syn)
	}
	for alias, real := range ReadAliases {
		assert.Equal(t, real, Synonyms[alias], alias)
	}
}

func TestBranchProtection_levelsRoundTrip(t *testing.T) {
	for level := 0; level <= 4; level++ {
		assert.Equal(t, level, LevelForProtection(ProtectionForLevel(level)), level)
	}
}

func TestResolve_precedence(t *testing.T) {
	c, err := resolve(Input{
		"allow_local_requests_from_hooks_and_services":     true,
		"allow_local_requests_from_web_hooks_and_services": false,
		"gravatar_enabled":      false,
		"avatarservice_enabled": true,
	})
	require.NoError(t, err)
	assert.Equal(t, true, c.values["allow_local_requests_from_web_hooks_and_services"], "the deprecated name wins")
	assert.Equal(t, false, c.values["gravatar_enabled"], "the real name wins over its placeholder")

	_, err = resolve(Input{"signup_enabled": nil})
	assert.EqualError(t, err, "signup_enabled is invalid")
	c, err = resolve(Input{"home_page_url": nil, "domain_allowlist": nil, "restricted_visibility_levels": []string{"0", "20"}})
	require.NoError(t, err)
	assert.Nil(t, c.values["home_page_url"])
	assert.Equal(t, []string{}, c.values["domain_allowlist"])
	assert.Equal(t, []string{"private", "public"}, c.values["restricted_visibility_levels"])
}
