package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// PersonalAccessToken is an API token of a user; project and group access tokens are personal
// access tokens of bot users. Only a SHA-256 digest of the secret is stored.
type PersonalAccessToken struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (PersonalAccessToken) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the token fields.
func (PersonalAccessToken) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.String("name").NotEmpty().MaxLen(255),
		field.String("description").MaxLen(255).Default(""),
		field.String("token_digest").Sensitive().Unique(),
		field.Strings("scopes"),
		field.Time("expires_at").Optional().Nillable(),
		field.Bool("revoked").Default(false),
		field.Bool("impersonation").Default(false),
		field.Time("last_used_at").Optional().Nillable(),
		// last_used_ips are the most recent distinct client addresses (at most five), newest last.
		field.Strings("last_used_ips").Optional(),
	}
}

// Edges returns the token's owner.
func (PersonalAccessToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("tokens").Field("user_id").Unique().Required(),
	}
}

// Indexes returns the token indexes.
func (PersonalAccessToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id")}
}

// Annotations keeps PersonalAccessToken out of the GraphQL graph.
func (PersonalAccessToken) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
