package settingsapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/settings"

	"github.com/stretchr/testify/assert"
)

// specObjectFields are the fields the spec lists for the instance settings object (its
// placeholder spellings included); specPutAttributes the attributes its PUT table lists.
var specObjectFields = []string{
	"admin_mode", "after_sign_out_path", "allow_account_deletion",
	"allow_local_requests_from_hooks_and_services", "allow_local_requests_from_system_hooks",
	"allow_local_requests_from_web_hooks_and_services", "asset_proxy_allowlist",
	"asset_proxy_enabled", "asset_proxy_url", "asset_proxy_whitelist", "assistant_features_enabled",
	"avatarservice_enabled", "bulk_import_concurrent_pipeline_batch_limit",
	"bulk_import_max_download_file_size", "can_create_group", "concurrent_github_import_jobs_limit",
	"concurrent_hosta_import_jobs_limit", "concurrent_hostb_import_jobs_limit",
	"concurrent_hostb_server_import_jobs_limit",
	"container_expiration_policies_enable_historic_entries",
	"container_registry_cleanup_tags_service_max_list_size",
	"container_registry_delete_tags_service_timeout",
	"container_registry_expiration_policies_caching",
	"container_registry_expiration_policies_worker_capacity", "container_registry_token_expire_delay",
	"created_at", "decompress_archive_file_timeout", "default_branch_protection",
	"default_branch_protection_defaults", "default_ci_config_path", "default_group_visibility",
	"default_preferred_language", "default_project_deletion_protection", "default_project_visibility",
	"default_projects_limit", "default_snippet_visibility", "delete_unconfirmed_users",
	"deletion_adjourned_period", "diagramtool1_enabled", "diagramtool1_url", "diagramtool2_enabled",
	"diagramtool2_url", "diagramtool3_enabled", "diagramtool3_url", "disable_personal_access_tokens",
	"domain_allowlist", "domain_denylist", "domain_denylist_enabled",
	"downstream_pipeline_trigger_limit_per_project_user_sha", "dsa_key_restriction",
	"ecdsa_key_restriction", "ecdsa_sk_key_restriction", "ed25519_key_restriction",
	"ed25519_sk_key_restriction", "enforce_terms", "external_authorization_service_default_label",
	"external_authorization_service_enabled", "external_authorization_service_timeout",
	"external_authorization_service_url", "external_pipeline_validation_service_timeout",
	"external_pipeline_validation_service_token", "external_pipeline_validation_service_url",
	"failed_login_attempts_unlock_period_in_minutes", "file_template_project_id", "first_day_of_week",
	"floc_enabled", "geo_node_allowed_ips", "geo_status_timeout", "globally_allowed_ips",
	"group_owners_can_manage_default_branch_protection", "home_page_url", "id", "issues_create_limit",
	"keep_latest_artifact", "local_markdown_version", "lock_assistant_features_enabled",
	"maven_package_requests_forwarding", "max_attachment_size", "max_decompressed_archive_size",
	"max_export_size", "max_import_remote_file_size", "max_import_size", "max_login_attempts",
	"npm_package_requests_forwarding", "outbound_local_requests_whitelist",
	"package_registry_allow_anyone_to_pull_option",
	"package_registry_cleanup_policies_worker_capacity", "password_authentication_enabled_for_web",
	"performance_bar_allowed_group_id", "personal_access_token_prefix", "polling_interval_multiplier",
	"project_jobs_api_rate_limit", "projects_api_rate_limit_unauthenticated",
	"pypi_package_requests_forwarding", "rate_limiting_response_text", "raw_blob_request_limit",
	"repository_storages_weighted", "require_admin_approval_after_user_signup",
	"require_personal_access_token_expiry", "restricted_visibility_levels", "rsa_key_restriction",
	"security_approval_policies_limit", "security_policy_global_group_approvers_enabled",
	"security_txt_content", "session_expire_delay", "signup_enabled", "silent_admin_exports_enabled",
	"silent_mode_enabled", "snippet_size_limit", "terminal_max_session_time", "terms",
	"tracker_connect_application_key", "tracker_connect_proxy_url",
	"tracker_connect_public_key_storage_enabled", "unconfirmed_users_delete_after_days", "updated_at",
	"updating_name_disabled_for_users", "use_colstore_for_analytics",
	"user_defaults_to_private_profile", "user_oauth_applications", "user_show_add_ssh_key_message",
	"wiki_page_max_content_bytes",
}

var specPutAttributes = []string{
	"abuse_notification_email", "admin_mode", "admin_notification_email", "after_sign_out_path",
	"after_sign_up_text", "allow_account_deletion", "allow_group_owners_to_manage_ldap",
	"allow_local_requests_from_hooks_and_services", "allow_local_requests_from_system_hooks",
	"allow_local_requests_from_web_hooks_and_services", "allow_project_creation_for_guest_and_below",
	"allow_runner_registration_token", "archive_builds_in_human_readable", "asciidoc_max_includes",
	"assistant_features_enabled", "bulk_import_concurrent_pipeline_batch_limit",
	"delete_inactive_projects", "email_restrictions", "email_restrictions_enabled",
	"housekeeping_optimize_repository_period", "inactive_projects_delete_after_months",
	"inactive_projects_min_size_mb", "inactive_projects_send_warning_email_after_months",
	"include_optional_metrics_in_service_ping", "lock_assistant_features_enabled",
	"notify_on_unknown_sign_in", "nuget_skip_metadata_url_validation",
	"require_admin_two_factor_authentication", "spamcheck_api_key", "spamcheck_enabled",
	"throttle_unauthenticated_api_enabled", "throttle_unauthenticated_api_period_in_seconds",
	"throttle_unauthenticated_api_requests_per_period",
	"throttle_unauthenticated_packages_api_enabled",
	"throttle_unauthenticated_packages_api_period_in_seconds",
	"throttle_unauthenticated_packages_api_requests_per_period",
	"throttle_unauthenticated_web_enabled", "throttle_unauthenticated_web_period_in_seconds",
	"throttle_unauthenticated_web_requests_per_period", "time_tracking_limit_to_hours",
	"two_factor_grace_period", "unconfirmed_users_delete_after_days", "unique_ips_limit_enabled",
	"unique_ips_limit_per_user", "unique_ips_limit_time_window", "update_runner_versions_enabled",
	"usage_ping_enabled", "use_colstore_for_analytics", "user_deactivation_emails_enabled",
	"user_default_external", "user_default_internal_regex", "user_defaults_to_private_profile",
	"user_oauth_applications", "user_show_add_ssh_key_message", "valid_runner_registrars",
	"version_check_enabled", "whats_new_variant", "wiki_page_max_content_bytes",
}

func TestSettings_everySpecFieldAndAttribute(t *testing.T) {
	in := servertest.Start(t)
	m := get(t, in)
	for _, name := range specObjectFields {
		assert.Contains(t, m, name)
	}
	for _, name := range specPutAttributes {
		_, ok := settings.InputKind(name)
		assert.True(t, ok, "PUT accepts %s", name)
	}
}
