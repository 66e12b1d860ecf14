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

// AwardEmoji is a user's emoji reaction on an awardable (GitLab's award_emoji): an issue, a
// note, a snippet, an epic or a merge request, named by type and id as GitLab's polymorphic
// association does, so every domain's objects share the one table.
type AwardEmoji struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (AwardEmoji) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the award fields.
func (AwardEmoji) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255),
		field.Int("user_id"),
		field.Enum("awardable_type").Values("Issue", "Note", "Snippet", "Epic", "MergeRequest"),
		field.Int("awardable_id"),
	}
}

// Edges returns the awarding user; the user's awards go with the account.
func (AwardEmoji) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the award indexes: a user awards a name once per awardable; the awardable's
// awards by name serve the lists, the vote counts and the popularity order.
func (AwardEmoji) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "awardable_type", "awardable_id", "name").Unique(),
		index.Fields("awardable_type", "awardable_id", "name"),
	}
}

// Annotations keeps awards out of the generated GraphQL schema for now.
func (AwardEmoji) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
