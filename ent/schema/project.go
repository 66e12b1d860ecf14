package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Project is a project in a namespace; it owns a git repository.
type Project struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Project) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// featureLevel is a project feature's access level: disabled, private or enabled.
func featureLevel(name string) ent.Field {
	return field.String(name).Default("enabled").Annotations(entgql.Skip())
}

// Fields returns the project fields.
func (Project) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("NAME")),
		field.String("path").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("PATH")),
		field.Int("namespace_id"),
		field.Int("creator_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("description").MaxLen(2000).Default(""),
		field.Enum("visibility").Values("private", "internal", "public").Default("private"),
		field.String("default_branch").Default("").Annotations(entgql.Skip()),
		field.Bool("archived").Default(false),
		field.Strings("topics").Optional().Annotations(entgql.Skip()),
		field.Time("last_activity_at").Default(now).Annotations(entgql.OrderField("LAST_ACTIVITY_AT")),
		// star_count is the number of project_stars rows, kept in step by starring and unstarring.
		field.Int("star_count").Default(0).Annotations(entgql.OrderField("STAR_COUNT")),
		featureLevel("container_registry_access_level"),
		featureLevel("issues_access_level"),
		featureLevel("repository_access_level"),
		featureLevel("merge_requests_access_level"),
		featureLevel("forking_access_level"),
		featureLevel("wiki_access_level"),
		featureLevel("builds_access_level"),
		featureLevel("snippets_access_level"),
		field.String("pages_access_level").Default("private").Annotations(entgql.Skip()),
		featureLevel("operations_access_level"),
		featureLevel("analytics_access_level"),
		featureLevel("requirements_access_level"),
		featureLevel("security_and_compliance_access_level"),
		featureLevel("releases_access_level"),
		featureLevel("environments_access_level"),
		featureLevel("feature_flags_access_level"),
		featureLevel("infrastructure_access_level"),
		featureLevel("monitor_access_level"),
		featureLevel("model_experiments_access_level"),
		featureLevel("model_registry_access_level"),
		field.Bool("request_access_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("lfs_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("shared_runners_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("emails_enabled").Default(true).Annotations(entgql.Skip()),
		field.String("merge_method").Default("merge").Annotations(entgql.Skip()),
		field.String("squash_option").Default("default_off").Annotations(entgql.Skip()),
		field.Bool("only_allow_merge_if_pipeline_succeeds").Default(false).Annotations(entgql.Skip()),
		field.Bool("only_allow_merge_if_all_discussions_are_resolved").Default(false).Annotations(entgql.Skip()),
		field.Bool("remove_source_branch_after_merge").Default(true).Annotations(entgql.Skip()),
		field.Bool("printing_merge_request_link_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("resolve_outdated_diff_discussions").Default(false).Annotations(entgql.Skip()),
		field.Bool("public_jobs").Default(true).Annotations(entgql.Skip()),
		field.String("ci_config_path").Default("").Annotations(entgql.Skip()),
		field.Int("build_timeout").Default(3600).Annotations(entgql.Skip()),
		field.String("avatar_url").MaxLen(1024).Default("").Annotations(entgql.Skip()),
		// repository_storage names the storage root holding the repository; disk_path is its
		// hashed location there, fixed at creation so renames and transfers never move it.
		field.String("repository_storage").Default("default").Annotations(entgql.Skip()),
		field.String("disk_path").Default("").Annotations(entgql.Skip()),
		field.Int("forked_from_id").Optional().Nillable().Annotations(entgql.Skip()),
		// pending_delete marks a project whose rows are gone from listings while its repository is removed.
		field.Bool("pending_delete").Default(false).Annotations(entgql.Skip()),
		// repository_read_only refuses pushes and API writes while the repository moves between
		// storages (GitLab's repository_read_only).
		field.Bool("repository_read_only").Default(false).Annotations(entgql.Skip()),
		// Merge request approval settings (GitLab Premium's project approval configuration):
		// approvals_before_merge is the deprecated count kept for GET /projects/:id/approvals.
		field.Int("approvals_before_merge").Default(0).Annotations(entgql.Skip()),
		field.Bool("reset_approvals_on_push").Default(true).Annotations(entgql.Skip()),
		field.Bool("selective_code_owner_removals").Default(false).Annotations(entgql.Skip()),
		field.Bool("disable_overriding_approvers_per_merge_request").Default(false).Annotations(entgql.Skip()),
		field.Bool("merge_requests_author_approval").Default(false).Annotations(entgql.Skip()),
		field.Bool("merge_requests_disable_committers_approval").Default(false).Annotations(entgql.Skip()),
		field.Bool("require_password_to_approve").Default(false).Annotations(entgql.Skip()),
	}
}

// Edges returns the project's namespace, creator, members and shares.
func (Project) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("namespace", Namespace.Type).Ref("projects").Field("namespace_id").Unique().Required(),
		edge.From("creator", User.Type).Ref("created_projects").Field("creator_id").Unique().Annotations(entgql.Skip()),
		edge.To("members", Member.Type).Annotations(entgql.Skip()),
		edge.To("group_links", ProjectGroupLink.Type).Annotations(entgql.Skip()),
		edge.To("forks", Project.Type).Annotations(entgql.Skip()).
			From("forked_from").Field("forked_from_id").Unique().Annotations(entgql.Skip()),
		edge.To("stars", ProjectStar.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("statistics", ProjectStatistics.Type).Unique().Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		// A project's activity goes with it, as in GitLab (events.project_id cascades).
		edge.To("events", Event.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("repository_storage_moves", ProjectRepositoryStorageMove.Type).
			Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the project indexes: a path is unique within its namespace.
func (Project) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("namespace_id", "path").Unique(),
		index.Fields("visibility"),
		// A listing's bounded total counts up to 10,001 visible projects; with every column the
		// visibility filter reads in one index, the count reads that index instead of the rows.
		index.Fields("pending_delete", "visibility", "namespace_id"),
		index.Fields("last_activity_at"),
		// forks_count is counted per page of projects by forked_from_id.
		index.Fields("forked_from_id"),
		// Listings order by created_at (GitLab's default) or updated_at with an id tie-breaker;
		// these let the database walk the order and stop after a page instead of sorting.
		index.Fields("created_at", "id"),
		index.Fields("updated_at", "id"),
		// order_by=star_count walks this index.
		index.Fields("star_count", "id"),
	}
}

// Annotations returns the GraphQL mapping.
func (Project) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
