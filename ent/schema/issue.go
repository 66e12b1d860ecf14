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

// Issue is a project's issue; iid counts within the project and is never reused.
type Issue struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Issue) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the issue fields.
func (Issue) Fields() []ent.Field {
	return []ent.Field{
		// GraphQL presents iid (a String), state, type and discussionLocked in GitLab's
		// shapes through resolvers (graph/issue.graphql); the ids are edges there.
		field.Int("project_id").Annotations(entgql.Skip()),
		field.Int("iid").Annotations(entgql.Skip()),
		field.String("title").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("TITLE")),
		field.Text("description").Optional().Nillable(),
		field.Enum("state").Values("opened", "closed").Default("opened").Annotations(entgql.Skip()),
		field.Enum("issue_type").Values("issue", "incident", "test_case", "task").Default("issue").
			Annotations(entgql.Skip()),
		// author_id is null once the author's account is gone.
		field.Int("author_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("milestone_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Bool("confidential").Default(false),
		field.Bool("discussion_locked").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("due_date").Optional().Nillable(),
		field.Time("closed_at").Optional().Nillable(),
		field.Int("closed_by_id").Optional().Nillable().Annotations(entgql.Skip()),
		// relative_position orders issues on boards (null until placed); weight is Premium's
		// issue weight (every tier is on).
		field.Int("relative_position").Optional().Nillable(),
		field.Int("weight").Optional().Nillable(),
		// user_notes_count counts the issue's user (non-system) notes, kept in step by the notes
		// domain in each note's transaction (GitLab counts them per read; a counter keeps lists
		// at one statement).
		field.Int("user_notes_count").Default(0),
		// time_estimate and total_time_spent are seconds; total_time_spent is the sum of the
		// issue's timelogs, kept in step in each timelog's transaction.
		field.Int("time_estimate").Default(0),
		field.Int("total_time_spent").Default(0),
	}
}

// Edges returns the issue's project, people, milestone, labels and assignees.
func (Issue) Edges() []ent.Edge {
	return []ent.Edge{
		// GraphQL resolves these from the edges issues.Load eager-loads (graph/issues.go).
		edge.To("project", Project.Type).Field("project_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("author", User.Type).Field("author_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("closed_by", User.Type).Field("closed_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("milestone", Milestone.Type).Field("milestone_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("label_links", IssueLabel.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("assignee_links", IssueAssignee.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the issue indexes: the iid, and the columns the list filters start from.
func (Issue) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "iid").Unique(),
		index.Fields("project_id", "state", "created_at"),
		// A project's list without a state filter, newest first (the default order, ties by
		// id): read in index order, stopping after the page, instead of sorting every issue.
		index.Fields("project_id", "created_at", "id"),
		index.Fields("milestone_id"),
		index.Fields("author_id"),
	}
}

// Annotations makes issues a GraphQL node type with Relay connections.
func (Issue) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// IssueLabel applies a label to an issue (GitLab's label_links for issues).
type IssueLabel struct{ ent.Schema }

// Fields returns the link fields.
func (IssueLabel) Fields() []ent.Field {
	return []ent.Field{field.Int("issue_id"), field.Int("label_id")}
}

// Edges returns the linked issue and label; the link goes with either.
func (IssueLabel) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("issue", Issue.Type).Ref("label_links").Field("issue_id").Unique().Required(),
		edge.From("label", Label.Type).Ref("issue_links").Field("label_id").Unique().Required(),
	}
}

// Indexes returns the link indexes: a label is applied once; a label's issues are found from
// the label alone (label_id, issue_id covers the labels filter's subquery).
func (IssueLabel) Indexes() []ent.Index {
	return []ent.Index{index.Fields("issue_id", "label_id").Unique(), index.Fields("label_id", "issue_id")}
}

// Annotations keeps label links out of GraphQL.
func (IssueLabel) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// IssueAssignee assigns a user to an issue (GitLab's issue_assignees).
type IssueAssignee struct{ ent.Schema }

// Fields returns the assignment fields.
func (IssueAssignee) Fields() []ent.Field {
	return []ent.Field{field.Int("issue_id"), field.Int("user_id")}
}

// Edges returns the issue and the user; the assignment goes with either.
func (IssueAssignee) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("issue", Issue.Type).Ref("assignee_links").Field("issue_id").Unique().Required(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the assignment indexes.
func (IssueAssignee) Indexes() []ent.Index {
	return []ent.Index{index.Fields("issue_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations keeps assignments out of GraphQL.
func (IssueAssignee) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
