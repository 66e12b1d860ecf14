package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ContainerRepository is an image repository of a project's container registry (GitLab's
// ContainerRepository): the image at the project's path (name "") or one below it
// ("<project path>/<name>"). Rows appear when the registry reports the first pushed manifest;
// tags and manifests live in the registry's storage, not here.
type ContainerRepository struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (ContainerRepository) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the repository's fields.
func (ContainerRepository) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		// name is the path below the project's, lower case as registry paths are; "" for the
		// image at the project's path.
		field.String("name").Default("").MaxLen(255),
		// path is the image path ("group/project/name"), fixed when the repository appears:
		// the images stay where they were pushed even if the project moves.
		field.String("path").NotEmpty().MaxLen(1024).Immutable(),
		// status is set while a deletion is scheduled or running (GitLab's status).
		field.Enum("status").Values("delete_scheduled", "delete_ongoing").Optional().Nillable(),
		// expiration_policy_started_at is when a cleanup last started (cleanup_policy_started_at).
		field.Time("expiration_policy_started_at").Optional().Nillable(),
		// bulk_delete_requested_at is when a bulk tag deletion was last accepted: another is
		// refused for an hour (GitLab's exclusive lease per repository).
		field.Time("bulk_delete_requested_at").Optional().Nillable(),
	}
}

// Edges returns the project the repository belongs to.
func (ContainerRepository) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().Required(),
	}
}

// Indexes returns the indexes: one repository per image path (a project that moved may hold
// two of one name, at its old and new paths).
func (ContainerRepository) Indexes() []ent.Index {
	return []ent.Index{index.Fields("path").Unique(), index.Fields("project_id", "name")}
}

// Annotations keeps ContainerRepository out of the generated graph.
func (ContainerRepository) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
