package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// GroupGroupLink shares a group (shared_group) with another group (shared_with_group): the
// invited group's members get at most group_access in the shared group.
type GroupGroupLink struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (GroupGroupLink) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the share fields.
func (GroupGroupLink) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shared_group_id"),
		field.Int("shared_with_group_id"),
		field.Int("group_access"),
		field.Time("expires_at").Optional().Nillable(),
	}
}

// Edges returns both groups.
func (GroupGroupLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shared_group", Namespace.Type).Ref("shared_with").Field("shared_group_id").Unique().Required(),
		edge.From("shared_with_group", Namespace.Type).Ref("shares_received").Field("shared_with_group_id").Unique().Required(),
	}
}

// Indexes returns the share indexes: a group is shared with another at most once.
func (GroupGroupLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shared_group_id", "shared_with_group_id").Unique(), index.Fields("shared_with_group_id")}
}

// ProjectGroupLink shares a project with a group.
type ProjectGroupLink struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (ProjectGroupLink) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the share fields.
func (ProjectGroupLink) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		field.Int("group_id"),
		field.Int("group_access"),
		field.Time("expires_at").Optional().Nillable(),
	}
}

// Edges returns the project and the group.
func (ProjectGroupLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("group_links").Field("project_id").Unique().Required(),
		edge.From("group", Namespace.Type).Ref("project_shares").Field("group_id").Unique().Required(),
	}
}

// Indexes returns the share indexes.
func (ProjectGroupLink) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "group_id").Unique(), index.Fields("group_id")}
}

// Annotations keeps GroupGroupLink out of the GraphQL graph.
func (GroupGroupLink) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Annotations keeps ProjectGroupLink out of the GraphQL graph.
func (ProjectGroupLink) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
