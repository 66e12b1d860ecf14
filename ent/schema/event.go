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

// Event is one entry of the activity feed (GitLab's events table): who did what, in which
// project (or group), to which target. The target is polymorphic: target_type names its kind
// (GitLab's class names: Issue, Milestone, MergeRequest, Note, Project, Snippet, User,
// WikiPage::Meta, DesignManagement::Design) and target_id its row; target_iid and target_title
// are kept with the event so that a kind's rows need not be read to show one. A push is an
// event with its payload (PushEventPayload).
type Event struct{ ent.Schema }

// Fields returns the event's columns.
func (Event) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("action").Values("created", "updated", "closed", "reopened", "pushed", "commented",
			"merged", "joined", "left", "destroyed", "expired", "approved"),
		field.Int("author_id"),
		field.Int("project_id").Optional().Nillable(),
		field.Int("group_id").Optional().Nillable(),
		field.String("target_type").Optional().Nillable().MaxLen(64),
		field.Int("target_id").Optional().Nillable(),
		field.Int("target_iid").Optional().Nillable(),
		field.String("target_title").Optional().Nillable(),
		// imported_from is GitLab's import source of an imported event ("none" for events
		// recorded here).
		field.String("imported_from").Default("none"),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the author, the project or group, and a push's payload.
func (Event) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("author", User.Type).Ref("events").Field("author_id").Unique().Required(),
		edge.From("project", Project.Type).Ref("events").Field("project_id").Unique(),
		edge.From("group", Namespace.Type).Ref("events").Field("group_id").Unique(),
		edge.To("push_data", PushEventPayload.Type).Unique().Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes serve the feeds: a user's events newest first, a project's, the target filter, and
// the pruning of old events. The feeds' indexes also hold the columns the visibility rules
// read (project, action), so that a page and its bounded count are answered from the index
// alone, without reading 10,000 rows of the table; target_type and target_id are there for
// the rules of targets (an issue's confidentiality, the issues feature).
func (Event) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("author_id", "id", "project_id", "action", "target_type", "target_id"),
		index.Fields("project_id", "id", "action", "target_type", "target_id"),
		index.Fields("target_type", "target_id"),
		index.Fields("created_at"),
	}
}

// Annotations keeps Event out of the generated graph.
func (Event) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// PushEventPayload is a push event's payload (GitLab's push_event_payloads): the ref, the
// commits it brought, or for a push of many refs at once (a bulk push) how many refs.
type PushEventPayload struct{ ent.Schema }

// Fields returns the payload's columns.
func (PushEventPayload) Fields() []ent.Field {
	return []ent.Field{
		field.Int("event_id").Unique(),
		field.Int("commit_count").Default(0),
		field.Enum("action").Values("created", "removed", "pushed"),
		field.Enum("ref_type").Values("branch", "tag"),
		field.String("commit_from").Optional().Nillable(), // null when the ref was created
		field.String("commit_to").Optional().Nillable(),   // null when the ref was removed
		field.String("ref").Optional().Nillable(),         // the short name; null for a bulk push
		field.String("commit_title").Optional().Nillable().MaxLen(70),
		field.Int("ref_count").Optional().Nillable(), // set for a bulk push only
	}
}

// Edges returns the event the payload belongs to.
func (PushEventPayload) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("event", Event.Type).Ref("push_data").Field("event_id").Unique().Required(),
	}
}

// Annotations keeps PushEventPayload out of the generated graph.
func (PushEventPayload) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
