package schema

import (
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WebHook is a system hook, a group hook or a project hook (GitLab's SystemHook, GroupHook and
// ProjectHook): where events are delivered, which events, and the hook's delivery health
// (recent_failures, backoff_count, disabled_until, permanently_disabled drive GitLab's
// auto-disabling). Exactly one of project_id and group_id is set for project and group hooks,
// neither for system hooks. The token, custom header values and URL variable values are
// secrets: never presented.
type WebHook struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (WebHook) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the hook fields; every *_events flag is one kind of event the hook receives.
func (WebHook) Fields() []ent.Field {
	fields := []ent.Field{
		field.Enum("type").Values("system", "group", "project").Immutable(),
		field.Int("project_id").Optional().Nillable(),
		field.Int("group_id").Optional().Nillable(),
		field.Text("url"),
		field.String("name").Default(""),
		field.Text("description").Default(""),
		field.Text("token").Default("").Sensitive(),
		field.Text("push_events_branch_filter").Optional().Nillable(),
		field.Enum("branch_filter_strategy").Values("wildcard", "regex", "all_branches").Default("wildcard"),
		field.Text("custom_webhook_template").Optional().Nillable(),
		field.JSON("custom_headers", map[string]string{}).Optional().Sensitive(),
		field.JSON("url_variables", map[string]string{}).Optional().Sensitive(),
		field.Bool("enable_ssl_verification").Default(true),
		field.Int("recent_failures").Default(0),
		field.Int("backoff_count").Default(0),
		field.Time("disabled_until").Optional().Nillable(),
		field.Bool("permanently_disabled").Default(false),
	}
	for _, flag := range []string{"push_events", "tag_push_events", "merge_requests_events",
		"repository_update_events", "issues_events", "confidential_issues_events", "note_events",
		"confidential_note_events", "pipeline_events", "wiki_page_events", "job_events",
		"deployment_events", "releases_events", "subgroup_events", "emoji_events",
		"resource_access_token_events", "member_events"} {
		fields = append(fields, field.Bool(flag).Default(false))
	}
	return fields
}

// Edges returns the hook's project or group, and its delivery log.
func (WebHook) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("group", Namespace.Type).Field("group_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("logs", WebHookLog.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the hook indexes: hooks are found by their owner.
func (WebHook) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id"), index.Fields("group_id"), index.Fields("type")}
}

// Annotations keeps hooks out of the generated GraphQL schema.
func (WebHook) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// WebHookLog is one delivery of a hook (GitLab's WebHookLog): what was sent (the secret token
// masked in the headers) and what came back, the response body truncated as GitLab does.
type WebHookLog struct{ ent.Schema }

// Fields returns the log fields; response_status is the HTTP status, or "internal error" when
// no response came (internal_error_message says why).
func (WebHookLog) Fields() []ent.Field {
	return []ent.Field{
		field.Int("web_hook_id"),
		field.String("trigger"),
		field.Text("url"),
		field.JSON("request_headers", map[string]string{}),
		field.Text("request_data"),
		field.JSON("response_headers", map[string]string{}),
		field.Text("response_body").Default(""),
		field.Float("execution_duration").Default(0),
		field.String("response_status"),
		field.Text("internal_error_message").Default(""),
		field.Time("created_at").Immutable().Default(func() time.Time { return now() }),
	}
}

// Edges returns the hook the delivery belongs to.
func (WebHookLog) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("web_hook", WebHook.Type).Ref("logs").Field("web_hook_id").Unique().Required(),
	}
}

// Indexes returns the log indexes: a hook's recent deliveries are listed newest first.
func (WebHookLog) Indexes() []ent.Index {
	return []ent.Index{index.Fields("web_hook_id", "created_at")}
}

// Annotations keeps logs out of GraphQL.
func (WebHookLog) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
