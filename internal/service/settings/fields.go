package settings

import (
	"sort"
	"strings"
)

// Kind is the wire type of a setting.
type Kind int

// The kinds of settings.
const (
	Bool       Kind = iota // true/false (Grape's boolean coercion on input)
	Int                    // integer
	Float                  // number (emitted with a decimal point, as GitLab's BigDecimal/float columns)
	String                 // text
	Strings                // array of strings (a comma-separated string is accepted on input)
	Weights                // object of storage name to integer weight
	Protection             // default_branch_protection_defaults object
	BoolMap                // object of name to boolean (kroki_formats)
)

// Field is one instance setting: its GitLab name, type, default and the rules PUT checks.
type Field struct {
	Name    string
	Kind    Kind
	Default any // nil is JSON null
	// Premium marks Premium/Ultimate settings (every tier is on in Anvil).
	Premium bool
	// WriteOnly settings are accepted but their value is never returned; NullOnRead ones are
	// emitted as null (GitLab lists the key, never the secret).
	WriteOnly, NullOnRead bool
	// Min and Max bound integers and numbers (with GitLab's messages).
	Min, Max *float64
	// MinExclusive makes Min a "greater than" bound.
	MinExclusive bool
	// MaxLen bounds text length in characters.
	MaxLen int
	// Values are the allowed values of a string, string array or integer (as text).
	Values []string
	// Decimal numbers are emitted as strings ("1.0"), as Rails encodes a decimal column.
	Decimal bool
	// URL settings must be http(s) URLs when set.
	URL bool
	// Requires lists the parameters that must come with this flag when it is set true in the
	// same request (Grape's given/requires): missing ones answer 400 "<name> is missing".
	Requires []string
	// Alias is the spec's placeholder spelling: accepted on input and emitted alongside.
	Alias string
}

func num(v float64) *float64 { return &v }

// placeholders are the spec's neutral words for third-party names inside setting names.
var placeholders = []struct{ real, alias string }{
	{"gravatar", "avatarservice"},
	{"akismet", "spamcheck"},
	{"plantuml", "diagramtool1"},
	{"diagramsnet", "diagramtool2"},
	{"kroki", "diagramtool3"},
	{"jira_connect", "tracker_connect"},
	{"duo_features", "assistant_features"},
	{"clickhouse", "colstore"},
	{"bitbucket", "hostb"},
	{"github", "hosta"},
}

// aliasOf returns the placeholder spelling of a real setting name, or "".
func aliasOf(name string) string {
	out := name
	for _, p := range placeholders {
		out = strings.ReplaceAll(out, p.real, p.alias)
	}
	if out == name {
		return ""
	}
	return out
}

// Synonyms maps deprecated parameter names to the setting they write. GitLab lets the
// deprecated name win when both are sent.
var Synonyms = map[string]string{
	"allow_local_requests_from_hooks_and_services":     "allow_local_requests_from_web_hooks_and_services",
	"admin_notification_email":                         "abuse_notification_email",
	"signin_enabled":                                   "password_authentication_enabled_for_web",
	"password_authentication_enabled":                  "password_authentication_enabled_for_web",
	"asset_proxy_whitelist":                            "asset_proxy_allowlist",
	"domain_whitelist":                                 "domain_allowlist",
	"domain_blacklist":                                 "domain_denylist",
	"domain_blacklist_enabled":                         "domain_denylist_enabled",
	"throttle_unauthenticated_web_enabled":             "throttle_unauthenticated_enabled",
	"throttle_unauthenticated_web_period_in_seconds":   "throttle_unauthenticated_period_in_seconds",
	"throttle_unauthenticated_web_requests_per_period": "throttle_unauthenticated_requests_per_period",
}

// ReadAliases are names emitted alongside a setting's own (deprecated spellings GitLab still
// returns): alias → setting.
var ReadAliases = map[string]string{
	"allow_local_requests_from_hooks_and_services": "allow_local_requests_from_web_hooks_and_services",
	"signin_enabled":                                   "password_authentication_enabled_for_web",
	"password_authentication_enabled":                  "password_authentication_enabled_for_web",
	"asset_proxy_whitelist":                            "asset_proxy_allowlist",
	"throttle_unauthenticated_web_enabled":             "throttle_unauthenticated_enabled",
	"throttle_unauthenticated_web_period_in_seconds":   "throttle_unauthenticated_period_in_seconds",
	"throttle_unauthenticated_web_requests_per_period": "throttle_unauthenticated_requests_per_period",
}

// DefaultBranchProtection is the deprecated integer form of default_branch_protection_defaults,
// converted both ways (see protection.go).
const DefaultBranchProtection = "default_branch_protection"

// The visibility settings, checked against restricted_visibility_levels.
const (
	RestrictedVisibilityLevels = "restricted_visibility_levels"
	DefaultProjectVisibility   = "default_project_visibility"
	DefaultGroupVisibility     = "default_group_visibility"
	DefaultSnippetVisibility   = "default_snippet_visibility"
)

var visibilities = []string{"private", "internal", "public"}

func b(name string, def bool) Field        { return Field{Name: name, Kind: Bool, Default: def} }
func s(name string, def any) Field         { return Field{Name: name, Kind: String, Default: def} }
func u(name string, def any) Field         { return Field{Name: name, Kind: String, Default: def, URL: true} }
func f(name string, def any) Field         { return Field{Name: name, Kind: Float, Default: def} }
func list(name string, def []string) Field { return Field{Name: name, Kind: Strings, Default: def} }

// n is a non-negative integer (GitLab validates most integer settings with >= 0); a nil
// default is null.
func n(name string, def any) Field { return Field{Name: name, Kind: Int, Default: def, Min: num(0)} }

func (f Field) premium() Field             { f.Premium = true; return f }
func (f Field) requires(r ...string) Field { f.Requires = r; return f }
func (f Field) between(lo, hi float64) Field {
	f.Min, f.Max = num(lo), num(hi)
	return f
}
func (f Field) atLeast(lo float64) Field { f.Min = num(lo); return f }
func (f Field) oneOf(v ...string) Field  { f.Values = v; return f }
func (f Field) maxLen(l int) Field       { f.MaxLen = l; return f }
func (f Field) writeOnly() Field         { f.WriteOnly = true; return f }
func (f Field) nullOnRead() Field        { f.NullOnRead = true; return f }
func (f Field) unbounded() Field         { f.Min = nil; return f }
func keyRestriction(name string, sizes ...string) Field {
	return Field{Name: name, Kind: Int, Default: 0, Values: append([]string{"0", "-1"}, sizes...)}
}

// fieldList is every setting of GET/PUT /application/settings: the spec's object fields and
// PUT attributes, the settings GitLab ties to them by a rule, and a few more GitLab settings
// that Anvil reads. Defaults are GitLab's (self-managed, not FIPS).
var fieldList = []Field{
	// Sign-up, sign-in and accounts.
	b("signup_enabled", true),
	b("password_authentication_enabled_for_web", true),
	b("password_authentication_enabled_for_git", true),
	n("minimum_password_length", 8).between(8, 128),
	b("require_admin_approval_after_user_signup", true),
	s("after_sign_up_text", nil),
	u("after_sign_out_path", nil),
	u("home_page_url", nil),
	s("sign_in_text", nil),
	b("email_restrictions_enabled", false).requires("email_restrictions"),
	s("email_restrictions", nil),
	list("domain_allowlist", []string{}),
	b("domain_denylist_enabled", false).requires("domain_denylist"),
	list("domain_denylist", []string{}),
	s("email_confirmation_setting", "off").oneOf("off", "soft", "hard"),
	b("notify_on_unknown_sign_in", true),
	n("max_login_attempts", nil),
	n("failed_login_attempts_unlock_period_in_minutes", nil),
	b("user_default_external", false),
	s("user_default_internal_regex", nil).maxLen(255),
	b("user_defaults_to_private_profile", false),
	b("user_oauth_applications", true),
	b("user_show_add_ssh_key_message", true),
	b("user_deactivation_emails_enabled", true),
	b("updating_name_disabled_for_users", false),
	b("allow_account_deletion", true).premium(),
	b("can_create_group", true),
	b("top_level_group_creation_enabled", true),
	b("allow_project_creation_for_guest_and_below", true),
	n("default_projects_limit", 100000).between(0, 2147483647),
	n("session_expire_delay", 10080),
	b("remember_me_enabled", true),
	b("require_two_factor_authentication", false).requires("two_factor_grace_period"),
	n("two_factor_grace_period", 48),
	b("require_admin_two_factor_authentication", false),
	b("admin_mode", false),
	b("unique_ips_limit_enabled", false).requires("unique_ips_limit_per_user", "unique_ips_limit_time_window"),
	n("unique_ips_limit_per_user", 10),
	n("unique_ips_limit_time_window", 3600),
	b("delete_unconfirmed_users", false).premium(),
	Field{Name: "unconfirmed_users_delete_after_days", Kind: Int, Default: 7, Min: num(0), MinExclusive: true}.premium(),
	b("disable_personal_access_tokens", false).premium(),
	b("require_personal_access_token_expiry", true),
	s("personal_access_token_prefix", "glpat-").maxLen(20),
	b("disable_feed_token", false),
	b("recaptcha_enabled", false).requires("recaptcha_site_key", "recaptcha_private_key"),
	b("login_recaptcha_protection_enabled", false).requires("recaptcha_site_key", "recaptcha_private_key"),
	s("recaptcha_site_key", nil),
	s("recaptcha_private_key", nil),
	b("invisible_captcha_enabled", false),
	b("akismet_enabled", false).requires("akismet_api_key"),
	s("akismet_api_key", nil),
	b("spam_check_endpoint_enabled", false).requires("spam_check_endpoint_url"),
	s("spam_check_endpoint_url", nil),
	s("spam_check_api_key", nil),
	s("abuse_notification_email", nil).maxLen(255),
	b("enforce_terms", false).requires("terms"),
	s("terms", nil),

	// Visibility.
	s(DefaultProjectVisibility, "private").oneOf(visibilities...),
	s(DefaultGroupVisibility, "private").oneOf(visibilities...),
	s(DefaultSnippetVisibility, "private").oneOf(visibilities...),
	list(RestrictedVisibilityLevels, []string{}).oneOf(visibilities...),

	// Branch protection and project creation.
	{Name: DefaultBranchProtection, Kind: Int, Default: 2, Values: []string{"0", "1", "2", "3", "4"}},
	{Name: "default_branch_protection_defaults", Kind: Protection},
	b("group_owners_can_manage_default_branch_protection", true).premium(),
	s("default_branch_name", nil),
	n("default_project_creation", 2).oneOf("0", "1", "2", "3", "4"),
	b("default_project_deletion_protection", false).premium(),
	n("deletion_adjourned_period", 30).between(1, 90).premium(),
	n("file_template_project_id", nil).premium(),
	s("default_ci_config_path", nil).maxLen(255),
	s("default_preferred_language", "en"),
	n("first_day_of_week", 0).oneOf("0", "1", "6"),

	// Limits.
	n("max_attachment_size", 100),
	n("max_artifacts_size", 100),
	n("max_pages_size", 100),
	n("max_decompressed_archive_size", 25600),
	n("max_export_size", 0),
	n("max_import_size", 0),
	n("max_import_remote_file_size", 10240),
	n("max_github_response_size_limit", 8),
	n("max_github_response_json_value_count", 250000),
	n("max_yaml_size_bytes", 2097152),
	n("max_yaml_depth", 100),
	n("ci_max_includes", 150),
	n("snippet_size_limit", 52428800),
	n("wiki_page_max_content_bytes", 52428800).atLeast(1024),
	n("asciidoc_max_includes", 32).between(0, 64),
	n("issues_create_limit", 300),
	n("raw_blob_request_limit", 300),
	n("search_rate_limit", 30),
	n("search_rate_limit_unauthenticated", 10),
	n("project_jobs_api_rate_limit", 600),
	n("projects_api_rate_limit_unauthenticated", 400),
	n("gitlab_shell_operation_limit", 600),
	n("downstream_pipeline_trigger_limit_per_project_user_sha", 0),
	n("push_event_hooks_limit", 3),
	n("push_event_activities_limit", 3),
	n("diff_max_patch_bytes", 204800),
	n("diff_max_files", 1000),
	n("diff_max_lines", 50000),
	n("terminal_max_session_time", 0),
	Field{Name: "polling_interval_multiplier", Kind: Float, Default: 1.0, Decimal: true}.atLeast(0),
	n("local_markdown_version", 0),
	n("container_registry_token_expire_delay", 5),
	n("decompress_archive_file_timeout", 210),
	n("bulk_import_max_download_file_size", 5120),
	n("bulk_import_concurrent_pipeline_batch_limit", 25),
	b("bulk_import_enabled", false),
	n("concurrent_github_import_jobs_limit", 1000),
	n("concurrent_bitbucket_import_jobs_limit", 100),
	n("concurrent_bitbucket_server_import_jobs_limit", 100),
	b("silent_admin_exports_enabled", false),
	s("rate_limiting_response_text", nil).maxLen(255),
	s("security_txt_content", nil).maxLen(2048),
	s("globally_allowed_ips", "").maxLen(255),
	s("archive_builds_in_human_readable", nil),
	s("default_artifacts_expire_in", "30 days"),
	b("keep_latest_artifact", true),
	n("inactive_resource_access_tokens_delete_after_days", 30),

	// Rate limits that need their period and count when enabled.
	b("throttle_unauthenticated_api_enabled", false).requires("throttle_unauthenticated_api_period_in_seconds", "throttle_unauthenticated_api_requests_per_period"),
	n("throttle_unauthenticated_api_period_in_seconds", 3600),
	n("throttle_unauthenticated_api_requests_per_period", 3600),
	b("throttle_unauthenticated_packages_api_enabled", false).requires("throttle_unauthenticated_packages_api_period_in_seconds", "throttle_unauthenticated_packages_api_requests_per_period"),
	n("throttle_unauthenticated_packages_api_period_in_seconds", 15),
	n("throttle_unauthenticated_packages_api_requests_per_period", 800),
	b("throttle_unauthenticated_enabled", false).requires("throttle_unauthenticated_period_in_seconds", "throttle_unauthenticated_requests_per_period"),
	n("throttle_unauthenticated_period_in_seconds", 3600),
	n("throttle_unauthenticated_requests_per_period", 3600),
	b("throttle_authenticated_api_enabled", false).requires("throttle_authenticated_api_period_in_seconds", "throttle_authenticated_api_requests_per_period"),
	n("throttle_authenticated_api_period_in_seconds", 3600),
	n("throttle_authenticated_api_requests_per_period", 7200),
	b("throttle_authenticated_web_enabled", false).requires("throttle_authenticated_web_period_in_seconds", "throttle_authenticated_web_requests_per_period"),
	n("throttle_authenticated_web_period_in_seconds", 3600),
	n("throttle_authenticated_web_requests_per_period", 7200),
	b("throttle_authenticated_packages_api_enabled", false).requires("throttle_authenticated_packages_api_period_in_seconds", "throttle_authenticated_packages_api_requests_per_period"),
	n("throttle_authenticated_packages_api_period_in_seconds", 15),
	n("throttle_authenticated_packages_api_requests_per_period", 1000),

	// Outbound requests (read by webhooks).
	b("allow_local_requests_from_web_hooks_and_services", false),
	// GitLab's defaults: system hooks (configured by administrators) may reach the local
	// network, web hooks and integrations may not.
	b("allow_local_requests_from_system_hooks", true),
	list("outbound_local_requests_whitelist", []string{}),
	b("dns_rebinding_protection_enabled", true),
	b("asset_proxy_enabled", false).requires("asset_proxy_url"),
	u("asset_proxy_url", nil),
	s("asset_proxy_secret_key", nil).writeOnly(),
	list("asset_proxy_allowlist", []string{}),

	// Repositories and storage.
	{Name: "repository_storages_weighted", Kind: Weights, Default: map[string]int{"default": 100}},
	b("repository_checks_enabled", true),
	b("housekeeping_enabled", true),
	n("housekeeping_optimize_repository_period", 50),
	b("mirror_available", true),
	b("project_export_enabled", true),
	b("delete_inactive_projects", false),
	n("inactive_projects_delete_after_months", 2),
	n("inactive_projects_min_size_mb", 0),
	n("inactive_projects_send_warning_email_after_months", 1),
	n("receive_max_input_size", nil),
	s("enabled_git_access_protocol", nil).oneOf("ssh", "http", "all"),
	keyRestriction("rsa_key_restriction", "1024", "2048", "3072", "4096"),
	keyRestriction("dsa_key_restriction", "1024"),
	keyRestriction("ecdsa_key_restriction", "256", "384", "521"),
	keyRestriction("ed25519_key_restriction", "256"),
	keyRestriction("ecdsa_sk_key_restriction", "256"),
	keyRestriction("ed25519_sk_key_restriction", "256"),
	b("authorized_keys_enabled", true),

	// Registries and packages.
	b("container_expiration_policies_enable_historic_entries", false),
	n("container_registry_cleanup_tags_service_max_list_size", 200),
	n("container_registry_delete_tags_service_timeout", 250),
	b("container_registry_expiration_policies_caching", true),
	n("container_registry_expiration_policies_worker_capacity", 4),
	n("package_registry_cleanup_policies_worker_capacity", 2),
	b("package_registry_allow_anyone_to_pull_option", true),
	b("maven_package_requests_forwarding", true).premium(),
	b("npm_package_requests_forwarding", true).premium(),
	b("pypi_package_requests_forwarding", true).premium(),
	b("nuget_skip_metadata_url_validation", false),

	// CI/CD and runners.
	b("shared_runners_enabled", true).requires("shared_runners_text"),
	s("shared_runners_text", nil),
	b("allow_runner_registration_token", true),
	list("valid_runner_registrars", []string{"project", "group"}).oneOf("group", "project"),
	b("update_runner_versions_enabled", true),
	b("auto_devops_enabled", true),
	s("auto_devops_domain", nil),
	b("protected_ci_variables", true),
	n("external_pipeline_validation_service_timeout", nil),
	s("external_pipeline_validation_service_token", nil).nullOnRead(),
	u("external_pipeline_validation_service_url", nil),
	b("eks_integration_enabled", false).requires("eks_account_id", "eks_access_key_id", "eks_secret_access_key"),
	s("eks_account_id", nil),
	s("eks_access_key_id", nil),
	s("eks_secret_access_key", nil).writeOnly(),

	// Integrations.
	b("gravatar_enabled", true),
	b("plantuml_enabled", false).requires("plantuml_url"),
	u("plantuml_url", nil),
	b("diagramsnet_enabled", true).requires("diagramsnet_url"),
	u("diagramsnet_url", "https://embed.diagrams.net"),
	b("kroki_enabled", false).requires("kroki_url"),
	u("kroki_url", nil),
	{Name: "kroki_formats", Kind: BoolMap, Default: map[string]bool{"blockdiag": false, "bpmn": false, "excalidraw": false}},
	b("sourcegraph_enabled", false).requires("sourcegraph_url"),
	u("sourcegraph_url", nil),
	b("sourcegraph_public_only", true),
	b("gitpod_enabled", false).requires("gitpod_url"),
	u("gitpod_url", "https://gitpod.io/"),
	b("mailgun_events_enabled", false).requires("mailgun_signing_key"),
	s("mailgun_signing_key", nil),
	b("snowplow_enabled", false).requires("snowplow_collector_hostname"),
	s("snowplow_collector_hostname", nil),
	s("snowplow_cookie_domain", nil),
	s("snowplow_app_id", nil),
	b("slack_app_enabled", false).requires("slack_app_id", "slack_app_secret", "slack_app_signing_secret", "slack_app_verification_token"),
	s("slack_app_id", nil),
	s("slack_app_secret", nil),
	s("slack_app_signing_secret", nil),
	s("slack_app_verification_token", nil),
	b("external_authorization_service_enabled", false).requires("external_authorization_service_default_label", "external_authorization_service_timeout", "external_authorization_service_url"),
	u("external_authorization_service_url", nil),
	s("external_authorization_service_default_label", nil),
	f("external_authorization_service_timeout", 0.5).between(0.001, 10),
	s("external_auth_client_cert", nil).requires("external_auth_client_key"),
	s("external_auth_client_key", nil).writeOnly(),
	s("external_auth_client_key_pass", nil).writeOnly(),
	s("jira_connect_application_key", nil),
	b("jira_connect_public_key_storage_enabled", false),
	u("jira_connect_proxy_url", nil),
	b("duo_features_enabled", true).premium(),
	b("lock_duo_features_enabled", false).premium(),
	b("use_clickhouse_for_analytics", false).premium(),

	// Instance operation.
	b("usage_ping_enabled", true),
	b("include_optional_metrics_in_service_ping", true),
	b("version_check_enabled", true),
	s("whats_new_variant", "all_tiers").oneOf("all_tiers", "current_tier", "disabled"),
	b("time_tracking_limit_to_hours", false),
	b("floc_enabled", false),
	b("silent_mode_enabled", false),
	b("html_emails_enabled", true),
	b("email_author_in_body", false),
	s("help_page_text", nil),
	b("help_page_hide_commercial_content", false),
	u("help_page_support_url", nil),
	b("hide_third_party_offers", false),
	n("performance_bar_allowed_group_id", nil),
	n("gitaly_timeout_default", 55),
	n("gitaly_timeout_fast", 10),
	n("gitaly_timeout_medium", 30),
	b("allow_group_owners_to_manage_ldap", true).premium(),
	s("geo_node_allowed_ips", "0.0.0.0/0, ::/0").maxLen(255).premium(),
	n("geo_status_timeout", 10).premium(),
	b("security_policy_global_group_approvers_enabled", true).premium(),
	n("security_approval_policies_limit", 5).between(0, 20).premium(),
}

// Fields holds every setting in table order; byName and inputs index it.
var (
	Fields = withAliases(fieldList)
	byName = index(Fields)
	// Defaults are the values of settings never written.
	Defaults = defaults(Fields)
)

func withAliases(in []Field) []Field {
	out := make([]Field, len(in))
	for i, f := range in {
		f.Alias = aliasOf(f.Name)
		out[i] = f
	}
	return out
}

func index(fs []Field) map[string]Field {
	m := make(map[string]Field, len(fs))
	for _, f := range fs {
		m[f.Name] = f
	}
	return m
}

func defaults(fs []Field) map[string]any {
	m := make(map[string]any, len(fs))
	for _, f := range fs {
		m[f.Name] = f.Default
	}
	m["default_branch_protection_defaults"] = ProtectionForLevel(2)
	return m
}

// Lookup returns the setting a parameter name writes: its own name, its placeholder alias or a
// deprecated synonym. deprecated reports a synonym (GitLab lets it win over the real name).
func Lookup(param string) (f Field, deprecated, ok bool) {
	if f, ok := byName[param]; ok {
		return f, false, true
	}
	if real, ok := Synonyms[param]; ok {
		return byName[real], true, true
	}
	if real, ok := aliasIndex[param]; ok {
		return byName[real], false, true
	}
	return Field{}, false, false
}

var aliasIndex = func() map[string]string {
	m := map[string]string{}
	for _, f := range Fields {
		if f.Alias != "" {
			m[f.Alias] = f.Name
		}
	}
	return m
}()

// InputNames lists every accepted parameter name, sorted: settings, aliases and synonyms.
func InputNames() []string {
	var out []string
	for _, f := range Fields {
		out = append(out, f.Name)
		if f.Alias != "" {
			out = append(out, f.Alias)
		}
	}
	for syn := range Synonyms {
		out = append(out, syn)
	}
	for name := range legacyInputs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// legacyInputs are deprecated housekeeping parameters that are not settings: checked by the
// housekeeping rule (the incremental period becomes the optimize period), emitted as derived
// values.
var legacyInputs = map[string]Kind{
	"housekeeping_full_repack_period":        Int,
	"housekeeping_gc_period":                 Int,
	"housekeeping_incremental_repack_period": Int,
	"housekeeping_bitmaps_enabled":           Bool,
}

// InputKind returns the kind a parameter is decoded as, and whether it is accepted.
func InputKind(param string) (Kind, bool) {
	if k, ok := legacyInputs[param]; ok {
		return k, true
	}
	f, _, ok := Lookup(param)
	return f.Kind, ok
}
