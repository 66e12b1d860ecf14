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

// Snippet is a personal snippet (no project) or a project snippet. Its files live in a bare git
// repository of its own (GitLab's versioned snippets); the row keeps what lists and the JSON
// shape need without opening it: where it is, and the paths of the files at the default branch.
type Snippet struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Snippet) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the snippet fields.
func (Snippet) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").NotEmpty().MaxLen(255),
		field.Text("description").Optional().Nillable(),
		field.Enum("visibility").Values("private", "internal", "public").Default("private").Annotations(entgql.Skip()),
		// author_id is null once the author's account is gone.
		field.Int("author_id").Optional().Nillable().Annotations(entgql.Skip()),
		// project_id is null for a personal snippet.
		field.Int("project_id").Optional().Nillable().Annotations(entgql.Skip()),
		// file_name is the path of the first file (GitLab's file_name column).
		field.String("file_name").Default(""),
		// files are the paths of the files at the default branch, in git's order, written with
		// every commit the API makes (GitLab reads them from the repository: list_files).
		field.Strings("files").Optional().Annotations(entgql.Skip()),
		field.String("repository_storage").Default("").Annotations(entgql.Skip()),
		field.String("disk_path").Default("").Annotations(entgql.Skip()),
		// default_branch is the branch the files are read from (the repository's root ref).
		field.String("default_branch").Default("main").Annotations(entgql.Skip()),
		field.String("imported_from").Default("none").Annotations(entgql.Skip()),
		// user_agent and ip_address are the creation request's (GitLab's user agent detail,
		// shown to administrators); empty when not known.
		field.String("user_agent").Default("").Annotations(entgql.Skip()),
		field.String("ip_address").Default("").Annotations(entgql.Skip()),
	}
}

// Edges returns the snippet's author and project.
func (Snippet) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("author", User.Type).Field("author_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the indexes the lists start from: a project's snippets, an author's, and the
// public personal ones.
func (Snippet) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "id"),
		index.Fields("author_id", "id"),
		index.Fields("visibility", "project_id", "created_at"),
	}
}

// Annotations makes snippets a GraphQL node type with Relay connections (project.snippets);
// visibility, the people and the files take GitLab's shapes through resolvers
// (graph/snippet.graphql).
func (Snippet) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
