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

// Label is a project label or a group label (GitLab's labels with type ProjectLabel or
// GroupLabel): exactly one of project_id and group_id is set. A group's labels apply in its
// descendant groups and their projects.
type Label struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Label) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the label fields; color is "#rrggbb" (names are resolved on the way in).
func (Label) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("TITLE")),
		field.String("color").NotEmpty(),
		field.Text("description").Optional().Nillable(),
		field.Int("priority").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("project_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("group_id").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges returns the label's owner, the issues it is applied to and its subscribers.
func (Label) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("group", Namespace.Type).Field("group_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("issue_links", IssueLabel.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("subscriptions", LabelSubscription.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the label indexes: a title is unique within its project or group.
func (Label) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "title").Unique(),
		index.Fields("group_id", "title").Unique(),
		// The issue filters find labels by title across the projects and groups in reach.
		index.Fields("title"),
	}
}

// Annotations makes labels a GraphQL node type with Relay connections.
func (Label) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// LabelSubscription is a user's subscription to a label (GitLab's subscriptions for labels).
type LabelSubscription struct{ ent.Schema }

// Fields returns the subscription fields.
func (LabelSubscription) Fields() []ent.Field {
	return []ent.Field{field.Int("label_id"), field.Int("user_id")}
}

// Edges returns the subscribed label and user; a subscription goes with either.
func (LabelSubscription) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("label", Label.Type).Ref("subscriptions").Field("label_id").Unique().Required(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the subscription indexes: one per user and label.
func (LabelSubscription) Indexes() []ent.Index {
	return []ent.Index{index.Fields("label_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations keeps subscriptions out of GraphQL.
func (LabelSubscription) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
