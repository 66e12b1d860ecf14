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

// Timelog is time spent on an issue or a merge request (negative to subtract); the target's
// total_time_spent is the sum of its timelogs.
type Timelog struct{ ent.Schema }

// Fields returns the timelog fields.
func (Timelog) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("target_type").Values("Issue", "MergeRequest"),
		field.Int("target_id"),
		field.Int("project_id").Optional().Nillable(),
		field.Int("user_id").Optional().Nillable(),
		field.Int("time_spent"),
		field.Time("spent_at").Default(now),
		field.String("summary").Optional().Nillable().MaxLen(255),
		field.Int("note_id").Optional().Nillable(),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the project and the user who logged the time.
func (Timelog) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user", User.Type).Field("user_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes returns the timelog indexes.
func (Timelog) Indexes() []ent.Index {
	return []ent.Index{index.Fields("target_type", "target_id"), index.Fields("user_id")}
}

// Annotations keeps timelogs out of GraphQL's generated types.
func (Timelog) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Subscription is a user's explicit choice to be notified, or not, about an issue, merge
// request or epic (GitLab's subscriptions); without a row, participation decides.
type Subscription struct{ ent.Schema }

// Fields returns the subscription fields.
func (Subscription) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("subscribable_type").Values("Issue", "MergeRequest", "Epic"),
		field.Int("subscribable_id"),
		field.Int("user_id"),
		field.Int("project_id").Optional().Nillable(),
		field.Bool("subscribed"),
	}
}

// Edges returns the user; a subscription goes with them.
func (Subscription) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the subscription indexes: one row per user and target.
func (Subscription) Indexes() []ent.Index {
	return []ent.Index{index.Fields("subscribable_type", "subscribable_id", "user_id").Unique()}
}

// Annotations keeps subscriptions out of GraphQL.
func (Subscription) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
