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

// Epic is a group's epic (GitLab Premium's portfolio planning, on in every tier here): iid counts
// within the group and is never reused. An epic may have a parent epic in its group or an
// ancestor group; deleting an epic deletes its descendants, as GitLab does.
type Epic struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Epic) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the epic fields. The dates are days (midnight UTC); start_date_fixed and
// due_date_fixed are what the user set, used when the matching *_is_fixed flag is on; otherwise
// the dates come from the milestones of the epic's issues.
func (Epic) Fields() []ent.Field {
	return []ent.Field{
		field.Int("group_id").Annotations(entgql.Skip()),
		field.Int("iid").Annotations(entgql.Skip()),
		field.String("title").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("TITLE")),
		field.Text("description").Optional().Nillable(),
		field.Enum("state").Values("opened", "closed").Default("opened").Annotations(entgql.Skip()),
		// author_id is null once the author's account is gone.
		field.Int("author_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Bool("confidential").Default(false),
		field.Time("start_date_fixed").Optional().Nillable(),
		field.Bool("start_date_is_fixed").Default(false),
		field.Time("due_date_fixed").Optional().Nillable(),
		field.Bool("due_date_is_fixed").Default(false),
		field.Int("parent_id").Optional().Nillable().Annotations(entgql.Skip()),
		// color is "#rrggbb" (GitLab's default epic color unless set).
		field.String("color").Default("#1068bf"),
		field.Time("closed_at").Optional().Nillable(),
		field.Int("closed_by_id").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges returns the epic's group, people, parent and children, labels and issues.
func (Epic) Edges() []ent.Edge {
	return []ent.Edge{
		// GraphQL resolves these through the epics service (graph/epics.go).
		edge.To("group", Namespace.Type).Field("group_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("author", User.Type).Field("author_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("closed_by", User.Type).Field("closed_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("children", Epic.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()).
			From("parent").Field("parent_id").Unique().Annotations(entgql.Skip()),
		edge.To("label_links", EpicLabel.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("issue_links", EpicIssue.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the epic indexes: the iid, the list's start, and the tree.
func (Epic) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("group_id", "iid").Unique(),
		index.Fields("group_id", "state", "created_at"),
		index.Fields("parent_id"),
		index.Fields("author_id"),
	}
}

// Annotations makes epics a GraphQL node type with Relay connections (group.epics); iid, state
// and the people take GitLab's shapes through resolvers (graph/epic.graphql).
func (Epic) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// EpicLabel applies a (group) label to an epic (GitLab's label_links for epics).
type EpicLabel struct{ ent.Schema }

// Fields returns the link fields.
func (EpicLabel) Fields() []ent.Field {
	return []ent.Field{field.Int("epic_id"), field.Int("label_id")}
}

// Edges returns the epic and the label; the link goes with either.
func (EpicLabel) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("epic", Epic.Type).Ref("label_links").Field("epic_id").Unique().Required(),
		edge.To("label", Label.Type).Field("label_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the link indexes: a label is applied once; epics are found by label.
func (EpicLabel) Indexes() []ent.Index {
	return []ent.Index{index.Fields("epic_id", "label_id").Unique(), index.Fields("label_id")}
}

// Annotations keeps label links out of GraphQL.
func (EpicLabel) Annotations() []schema.Annotation { return skipGraphQL() }

// EpicIssue puts an issue in an epic (GitLab's epic_issues): an issue is in one epic at most.
type EpicIssue struct{ ent.Schema }

// Fields returns the link fields.
func (EpicIssue) Fields() []ent.Field {
	return []ent.Field{
		field.Int("epic_id"), field.Int("issue_id"),
		field.Time("created_at").Immutable().Default(now),
		field.Time("updated_at").Default(now).UpdateDefault(now),
	}
}

// Edges returns the epic and the issue; the link goes with either.
func (EpicIssue) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("epic", Epic.Type).Ref("issue_links").Field("epic_id").Unique().Required(),
		edge.To("issue", Issue.Type).Field("issue_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the link indexes: one epic per issue; an epic's issues in order.
func (EpicIssue) Indexes() []ent.Index {
	return []ent.Index{index.Fields("issue_id").Unique(), index.Fields("epic_id", "id")}
}

// Annotations keeps epic-issue links out of GraphQL.
func (EpicIssue) Annotations() []schema.Annotation { return skipGraphQL() }
