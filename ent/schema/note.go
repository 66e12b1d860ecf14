package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Note is a comment on a noteable object, or a system note about a change to it (GitLab's
// notes table). Every noteable shares the one table: noteable_type names the kind (GitLab's
// class names) and noteable_id its row (commit_id for a commit's notes, which have no row).
// As in GitLab the reference to the noteable is not a foreign key: each noteable's domain
// removes its notes when it removes the object (notes.Service.DeleteFor); the project or the
// group (epics) the note lives in is one, so the notes go with it.
//
// The notes of one thread share discussion_id (40 hex digits); a note that is not part of a
// thread has a discussion id of its own and no type. Replying to it turns it into a thread:
// its type becomes DiscussionNote, like the reply's.
type Note struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Note) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the note's columns.
func (Note) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("noteable_type").Values("Issue", "Snippet", "Epic", "MergeRequest", "Commit"),
		field.Int("noteable_id").Optional().Nillable(),
		// noteable_iid is the noteable's iid (issues and merge requests), kept with the note so
		// that notes can be shown without reading their noteable (events, lists).
		field.Int("noteable_iid").Optional().Nillable(),
		field.String("commit_id").Optional().Nillable().MaxLen(64),
		field.Int("project_id").Optional().Nillable(),
		// namespace_id is the group of a group-level noteable (epics).
		field.Int("namespace_id").Optional().Nillable(),
		// author_id is null once the author's account is gone.
		field.Int("author_id").Optional().Nillable(),
		field.Text("body"),
		field.Bool("system").Default(false),
		// internal is GitLab's confidential note: readable by Reporter+ only.
		field.Bool("internal").Default(false),
		field.String("discussion_id").MaxLen(40),
		field.Enum("type").Values("DiscussionNote", "DiffNote").Optional().Nillable(),
		field.Bool("resolvable").Default(false),
		field.Int("resolved_by_id").Optional().Nillable(),
		field.Time("resolved_at").Optional().Nillable(),
		// position is a diff note's place in a diff (merge requests and commits).
		field.JSON("position", map[string]any{}).Optional(),
		field.Time("last_edited_at").Optional().Nillable(),
		field.Int("updated_by_id").Optional().Nillable(),
	}
}

// Edges returns the note's project or group, its author and the users who resolved or edited it.
func (Note) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("namespace", Namespace.Type).Field("namespace_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("author", User.Type).Field("author_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull)),
		edge.To("resolved_by", User.Type).Field("resolved_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull)),
		edge.To("updated_by", User.Type).Field("updated_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes returns the note indexes: a noteable's notes in order, a thread, a commit's notes.
func (Note) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("noteable_type", "noteable_id", "id"),
		index.Fields("discussion_id"),
		index.Fields("project_id", "commit_id"),
		index.Fields("author_id"),
	}
}

// Annotations keeps notes out of the generated GraphQL schema for now.
func (Note) Annotations() []schema.Annotation { return skipGraphQL() }
