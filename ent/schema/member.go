package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Member is a user's direct membership of a group (namespace_id set) or a project (project_id set).
type Member struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Member) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the membership fields.
func (Member) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.Int("namespace_id").Optional().Nillable(),
		field.Int("project_id").Optional().Nillable(),
		// GraphQL shows the level as GitLab's AccessLevel object (graph/member.graphql), not an Int.
		field.Int("access_level").Annotations(entgql.OrderField("ACCESS_LEVEL"), entgql.Skip(entgql.SkipType)),
		field.Time("expires_at").Optional().Nillable(),
		field.Int("created_by_id").Optional().Nillable().Annotations(entgql.Skip()),
		// state is "active", or "awaiting" for memberships held back by a seat limit.
		field.String("state").Default("active"),
	}
}

// Edges returns the member's user and source.
func (Member) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required(),
		edge.From("namespace", Namespace.Type).Ref("members").Field("namespace_id").Unique(),
		edge.From("project", Project.Type).Ref("members").Field("project_id").Unique(),
	}
}

// Indexes returns the membership indexes: one membership per user and source.
func (Member) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("namespace_id", "user_id").Unique(),
		index.Fields("project_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}

// Annotations returns the GraphQL mapping.
func (Member) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
