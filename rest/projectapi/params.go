package projectapi

import (
	"anvil/internal/authz"
	"anvil/internal/service/projects"
	"anvil/rest/params"
	"anvil/rest/presenter"
)

var visibilities = []string{"private", "internal", "public"}

// legacyFeatures maps the deprecated feature booleans to their features.
var legacyFeatures = []struct{ param, feature string }{
	{"issues_enabled", "issues"}, {"merge_requests_enabled", "merge_requests"},
	{"wiki_enabled", "wiki"}, {"jobs_enabled", "builds"}, {"builds_enabled", "builds"},
	{"snippets_enabled", "snippets"}, {"container_registry_enabled", "container_registry"},
}

// updateParams are the parameters of which PUT /projects/:id needs at least one, in GitLab's
// order (it names them all when none is given).
var updateParams = []string{
	"allow_merge_on_skipped_pipeline", "analytics_access_level", "autoclose_referenced_issues",
	"auto_devops_enabled", "auto_devops_deploy_strategy", "auto_cancel_pending_pipelines",
	"build_git_strategy", "build_timeout", "builds_access_level", "ci_config_path",
	"ci_default_git_depth", "ci_allow_fork_pipelines_to_run_in_parent_project",
	"ci_id_token_sub_claim_components", "ci_forward_deployment_enabled",
	"ci_forward_deployment_rollback_allowed", "ci_separated_caches",
	"container_registry_access_level", "container_expiration_policy_attributes", "default_branch",
	"description", "emails_disabled", "emails_enabled", "forking_access_level",
	"issues_access_level", "lfs_enabled", "merge_pipelines_enabled", "merge_requests_access_level",
	"merge_requests_template", "merge_trains_enabled", "merge_method", "merge_request_title_regex",
	"merge_request_title_regex_description", "name", "only_allow_merge_if_all_discussions_are_resolved",
	"only_allow_merge_if_pipeline_succeeds", "package_registry_access_level", "pages_access_level",
	"path", "printing_merge_request_link_enabled", "public_builds", "public_jobs",
	"remove_source_branch_after_merge", "repository_access_level", "request_access_enabled",
	"resolve_outdated_diff_discussions", "restrict_user_defined_variables",
	"show_diff_preview_in_email", "security_and_compliance_access_level", "squash_option",
	"shared_runners_enabled", "group_runners_enabled", "resource_group_default_process_mode",
	"snippets_access_level", "tag_list", "topics", "visibility", "wiki_access_level", "avatar",
	"suggestion_commit_message", "merge_commit_template", "squash_commit_template",
	"issue_branch_template", "repository_storage", "packages_enabled", "service_desk_enabled",
	"keep_latest_artifact", "mr_default_target_self", "enforce_auth_checks_on_uploads",
	"releases_access_level", "environments_access_level", "feature_flags_access_level",
	"infrastructure_access_level", "monitor_access_level", "model_experiments_access_level",
	"model_registry_access_level", "warn_about_potentially_unwanted_characters",
	"ci_pipeline_variables_minimum_override_role", "ci_push_repository_for_job_token_allowed",
	"ci_delete_pipelines_in_seconds", "max_artifacts_size", "issues_enabled", "jobs_enabled",
	"merge_requests_enabled", "wiki_enabled", "snippets_enabled", "container_registry_enabled",
}

// bindAttributes reads the project attributes of POST and PUT, translating GitLab's
// deprecated aliases: the *_enabled feature booleans (an explicit *_access_level wins),
// tag_list (topics wins), emails_disabled and public_builds (public_jobs wins).
func bindAttributes(b *params.Binder) projects.Attributes {
	a := projects.Attributes{
		Name: b.String("name"), Path: b.String("path"), Description: b.NullableString("description"),
		DefaultBranch: b.String("default_branch"), Visibility: b.Enum("visibility", visibilities...),
		RequestAccessEnabled: b.Bool("request_access_enabled"), LFSEnabled: b.Bool("lfs_enabled"),
		SharedRunnersEnabled: b.Bool("shared_runners_enabled"), EmailsEnabled: b.Bool("emails_enabled"),
		MergeMethod:                      b.Enum("merge_method", "ff", "rebase_merge", "merge"),
		SquashOption:                     b.Enum("squash_option", "never", "always", "default_on", "default_off"),
		OnlyAllowMergeIfPipelineSucceeds: b.Bool("only_allow_merge_if_pipeline_succeeds"),
		OnlyAllowMergeIfAllDiscussionsAreResolved: b.Bool("only_allow_merge_if_all_discussions_are_resolved"),
		RemoveSourceBranchAfterMerge:              b.Bool("remove_source_branch_after_merge"),
		PrintingMergeRequestLinkEnabled:           b.Bool("printing_merge_request_link_enabled"),
		ResolveOutdatedDiffDiscussions:            b.Bool("resolve_outdated_diff_discussions"),
		PublicJobs:                                b.Bool("public_builds"),
		CIConfigPath:                              b.NullableString("ci_config_path"),
		BuildTimeout:                              b.Int("build_timeout"),
		RepositoryStorage:                         b.String("repository_storage"),
		AccessLevels:                              map[string]string{},
	}
	if v := b.Bool("public_jobs"); v != nil {
		a.PublicJobs = v
	}
	if v := b.Bool("emails_disabled"); v != nil {
		enabled := !*v
		a.EmailsEnabled = &enabled
	}
	if t := b.Strings("topics"); t != nil {
		a.Topics = &t
	} else if t := b.Strings("tag_list"); t != nil {
		a.Topics = &t
	}
	for _, f := range projects.Features {
		if v := b.Enum(f+"_access_level", projects.FeatureLevels(f)...); v != nil {
			a.AccessLevels[f] = *v
		}
	}
	for _, l := range legacyFeatures {
		if v := b.Bool(l.param); v != nil {
			if _, set := a.AccessLevels[l.feature]; !set {
				a.AccessLevels[l.feature] = map[bool]string{true: "enabled", false: "disabled"}[*v]
			}
		}
	}
	// Accepted settings Anvil does not store are still checked, as Grape checks them.
	b.Enum("build_git_strategy", "fetch", "clone")
	b.Enum("auto_cancel_pending_pipelines", "disabled", "enabled")
	b.Enum("auto_devops_deploy_strategy", "continuous", "manual", "timed_incremental")
	b.Enum("repository_object_format", "sha1", "sha256")
	b.Enum("package_registry_access_level", "disabled", "private", "enabled", "public")
	b.Enum("ci_pipeline_variables_minimum_override_role", "no_one_allowed", "developer", "maintainer", "owner")
	for _, name := range []string{"service_desk_enabled", "group_runners_enabled", "packages_enabled",
		"auto_devops_enabled", "autoclose_referenced_issues", "allow_merge_on_skipped_pipeline",
		"enforce_auth_checks_on_uploads", "warn_about_potentially_unwanted_characters", "mr_default_target_self"} {
		b.Bool(name)
	}
	return a
}

// bindFilters reads the filters shared by the project listings.
func bindFilters(b *params.Binder) projects.ListParams {
	p := projects.ListParams{
		Search: b.StringDefault("search", ""), SearchNamespaces: b.BoolDefault("search_namespaces", false),
		Owned: b.BoolDefault("owned", false), Membership: b.BoolDefault("membership", false),
		Starred: b.BoolDefault("starred", false), Imported: b.BoolDefault("imported", false),
		Visibility: stringOf(b.Enum("visibility", visibilities...)), Archived: b.Bool("archived"), Active: b.Bool("active"),
		IDAfter: b.Int("id_after"), IDBefore: b.Int("id_before"),
		LastActivityAfter: b.Time("last_activity_after"), LastActivityBefore: b.Time("last_activity_before"),
		UpdatedAfter: b.Time("updated_after"), UpdatedBefore: b.Time("updated_before"),
		Topics: b.Strings("topic"), TopicID: b.Int("topic_id"),
		WithIssuesEnabled:        b.BoolDefault("with_issues_enabled", false),
		WithMergeRequestsEnabled: b.BoolDefault("with_merge_requests_enabled", false),
		WithProgrammingLanguage:  b.StringDefault("with_programming_language", ""),
		RepositoryStorage:        b.StringDefault("repository_storage", ""),
	}
	if l := b.Int("min_access_level"); l != nil {
		if authz.ValidMemberLevel(*l) {
			p.MinAccessLevel = *l
		} else {
			b.Fail("min_access_level does not have a valid value")
		}
	}
	b.Bool("include_pending_delete")
	return p
}

// BindOptions reads the options that change the project shapes.
func BindOptions(b *params.Binder) presenter.ProjectOptions {
	return presenter.ProjectOptions{
		License:          b.BoolDefault("license", false),
		Statistics:       b.BoolDefault("statistics", false),
		CustomAttributes: b.BoolDefault("with_custom_attributes", false),
	}
}

func stringOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
