package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ProjectRepositoryStorageMove is one move of a project's repository from one storage to
// another (GitLab's Projects::RepositoryStorageMove). Its state follows GitLab's machine:
// initial → scheduled → started → replicated → finished, with failed (before the switch) and
// cleanup_failed (after it, the source could not be removed).
type ProjectRepositoryStorageMove struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (ProjectRepositoryStorageMove) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the move's fields.
func (ProjectRepositoryStorageMove) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		field.Enum("state").
			Values("initial", "scheduled", "started", "finished", "failed", "replicated", "cleanup_failed").
			Default("initial"),
		field.String("source_storage_name").NotEmpty().MaxLen(255),
		field.String("destination_storage_name").NotEmpty().MaxLen(255),
		// checksum is the checksum of the refs copied and verified on the destination, kept so
		// that the clean-up removes the source only if nothing reached it after the copy.
		field.String("checksum").Default(""),
	}
}

// Edges returns the project moved; its moves go with it.
func (ProjectRepositoryStorageMove) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("repository_storage_moves").
			Field("project_id").Unique().Required(),
	}
}

// Indexes returns the indexes: a project's moves, and the unfinished moves to resume.
func (ProjectRepositoryStorageMove) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at"), index.Fields("state")}
}

// Annotations keeps storage moves out of the generated graph.
func (ProjectRepositoryStorageMove) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
