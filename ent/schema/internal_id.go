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

// InternalID is the counter behind one kind of internal id (GitLab's internal_ids): the last
// iid handed out for a usage (issues, milestones, ...) within a project or a group. It only
// grows, so an iid is never handed out twice, even after the record holding it is deleted.
type InternalID struct{ ent.Schema }

// Fields returns the counter fields; exactly one of project_id and namespace_id is set.
func (InternalID) Fields() []ent.Field {
	return []ent.Field{
		field.String("usage").NotEmpty(),
		field.Int("project_id").Optional().Nillable(),
		field.Int("namespace_id").Optional().Nillable(),
		field.Int("last_value").Default(0),
	}
}

// Edges returns the counter's scope; a counter goes with its project or group.
func (InternalID) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("namespace", Namespace.Type).Field("namespace_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns one counter per usage and scope (NULLs never collide in a unique index).
func (InternalID) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("usage", "project_id").Unique(),
		index.Fields("usage", "namespace_id").Unique(),
	}
}

// Annotations keeps the counters out of GraphQL.
func (InternalID) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
