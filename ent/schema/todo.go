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

// Todo is one item of a user's to-do list (GitLab's todos): what author did that asks for the
// user's attention (action), on which target. The target is polymorphic like an event's:
// target_type names its kind with GitLab's class names (Issue, MergeRequest, Epic, ...) and
// target_id its row. A to-do belongs to a project (project targets) or a group (group targets
// such as epics). note_id names the comment that mentioned the user, when a comment did; body
// keeps that comment's text (other to-dos show their target's title).
type Todo struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Todo) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the to-do's columns.
func (Todo) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id").Annotations(entgql.Skip()),
		field.Int("author_id").Annotations(entgql.Skip()),
		field.Int("project_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("group_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("target_type").MaxLen(64).Annotations(entgql.Skip()),
		field.Int("target_id").Annotations(entgql.Skip()),
		// action holds GitLab's action names (Todo::ACTION_NAMES).
		field.Enum("action").Values("assigned", "mentioned", "build_failed", "marked", "approval_required",
			"unmergeable", "directly_addressed", "merge_train_removed", "review_requested",
			"member_access_requested", "review_submitted", "okr_checkin_requested", "added_approver",
			"ssh_key_expired", "ssh_key_expiring_soon").Annotations(entgql.Type("TodoActionEnum")),
		field.Enum("state").Values("pending", "done").Default("pending").Annotations(entgql.Type("TodoStateEnum")),
		field.Int("note_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Text("body").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges returns the owner, the author, and the project or group; a to-do goes with any of them.
func (Todo) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("author", User.Type).Field("author_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("group", Namespace.Type).Field("group_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes serve the owner's list (pending first, newest first) and the writes that find a
// target's to-dos (creation skips users with a pending one; closing and deleting resolve them).
func (Todo) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("user_id", "state", "id"),
		index.Fields("target_type", "target_id", "state"),
	}
}

// Annotations makes to-dos a GraphQL node type with Relay connections (currentUser.todos); the
// ids, target and body take GitLab's shapes through resolvers (graph/todo.graphql).
func (Todo) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
