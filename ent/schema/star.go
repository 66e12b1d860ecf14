package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ProjectStar is a user's star on a project (GitLab's users_star_projects); the project's
// star_count counts them.
type ProjectStar struct{ ent.Schema }

// Fields returns the star fields; created_at is when the user starred the project.
func (ProjectStar) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id"),
		field.Int("project_id"),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the star's user and project; a star goes with either.
func (ProjectStar) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("stars").Field("user_id").Unique().Required(),
		edge.From("project", Project.Type).Ref("stars").Field("project_id").Unique().Required(),
	}
}

// Indexes returns the star indexes: a user stars a project once.
func (ProjectStar) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "project_id").Unique(), index.Fields("project_id")}
}

// Annotations keeps ProjectStar out of the GraphQL graph.
func (ProjectStar) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
