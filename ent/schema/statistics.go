package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// ProjectStatistics are a project's storage statistics (GitLab's project_statistics), in bytes
// except commit_count. Pushes and API writes mark them stale; the next read that shows them
// computes them again from the repository.
type ProjectStatistics struct{ ent.Schema }

// Fields returns the statistics.
func (ProjectStatistics) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id").Unique(),
		field.Int64("commit_count").Default(0),
		field.Int64("repository_size").Default(0),
		field.Int64("wiki_size").Default(0),
		field.Int64("lfs_objects_size").Default(0),
		field.Int64("build_artifacts_size").Default(0),
		field.Int64("pipeline_artifacts_size").Default(0),
		field.Int64("packages_size").Default(0),
		field.Int64("snippets_size").Default(0),
		field.Int64("uploads_size").Default(0),
		field.Int64("container_registry_size").Default(0),
		field.Int64("storage_size").Default(0),
		// stale is set by every change to the repository, which also counts up version, so that
		// values measured before a change cannot overwrite it; refreshed_at is when the values
		// were last computed (nil: never).
		field.Bool("stale").Default(true),
		field.Int("version").Default(0),
		field.Time("refreshed_at").Optional().Nillable(),
		// pushes_since_gc counts pushes, which schedule repository housekeeping (GitLab's column).
		field.Int("pushes_since_gc").Default(0),
	}
}

// Edges returns the project; the statistics go with it.
func (ProjectStatistics) Edges() []ent.Edge {
	return []ent.Edge{edge.From("project", Project.Type).Ref("statistics").Field("project_id").Unique().Required()}
}

// Annotations keeps ProjectStatistics out of the generated graph.
func (ProjectStatistics) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
