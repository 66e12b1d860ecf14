package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// UserCustomAttribute is an administrator-set key/value on a user.
type UserCustomAttribute struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (UserCustomAttribute) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the attribute fields.
func (UserCustomAttribute) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.String("key").NotEmpty().MaxLen(255),
		field.String("value").MaxLen(255),
	}
}

// Edges returns the attribute's user.
func (UserCustomAttribute) Edges() []ent.Edge {
	return []ent.Edge{edge.From("user", User.Type).Ref("custom_attributes").Field("user_id").Unique().Required()}
}

// Indexes returns the attribute indexes.
func (UserCustomAttribute) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "key").Unique(), index.Fields("key", "value")}
}

// Identity links a user to an external identity provider account (provider, extern_uid).
type Identity struct{ ent.Schema }

// Fields returns the identity fields.
func (Identity) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.String("provider").NotEmpty(),
		field.String("extern_uid").NotEmpty(),
		field.Int("saml_provider_id").Optional().Nillable(),
	}
}

// Edges returns the identity's user.
func (Identity) Edges() []ent.Edge {
	return []ent.Edge{edge.From("user", User.Type).Ref("identities").Field("user_id").Unique().Required()}
}

// Indexes returns the identity indexes.
func (Identity) Indexes() []ent.Index {
	return []ent.Index{index.Fields("provider", "extern_uid").Unique()}
}

// Setting is one instance setting (application settings), stored as its JSON value by key.
type Setting struct{ ent.Schema }

// Fields returns the setting fields.
func (Setting) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").NotEmpty().Unique(),
		field.Text("value"),
	}
}

// Annotations keeps UserCustomAttribute out of the GraphQL graph.
func (UserCustomAttribute) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Annotations keeps Identity out of the GraphQL graph.
func (Identity) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Annotations keeps Setting out of the GraphQL graph.
func (Setting) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// GroupCustomAttribute is an administrator-set key/value on a group.
type GroupCustomAttribute struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (GroupCustomAttribute) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the attribute fields.
func (GroupCustomAttribute) Fields() []ent.Field {
	return []ent.Field{
		field.Int("group_id"),
		field.String("key").NotEmpty().MaxLen(255),
		field.String("value").MaxLen(255),
	}
}

// Edges returns the attribute's group; the attribute goes with it.
func (GroupCustomAttribute) Edges() []ent.Edge {
	return []ent.Edge{edge.From("group", Namespace.Type).Ref("custom_attributes").Field("group_id").Unique().Required()}
}

// Indexes returns the attribute indexes.
func (GroupCustomAttribute) Indexes() []ent.Index {
	return []ent.Index{index.Fields("group_id", "key").Unique(), index.Fields("key", "value")}
}

// Annotations keeps GroupCustomAttribute out of the GraphQL graph.
func (GroupCustomAttribute) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
