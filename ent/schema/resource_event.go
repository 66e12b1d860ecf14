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

// The resource events record an issuable's state, label and milestone changes (GitLab's
// resource_state_events, resource_label_events, resource_milestone_events). They refer to
// their issuable polymorphically: issuable_type names the kind and exactly one foreign key of
// that kind is set (issue_id or merge_request_id; epic_id on label events, whose epics record
// them too), so each reference keeps a real foreign key and goes with its row.

// issuableRef returns the kind column (of the kinds given, issues and merge requests when none)
// and the issuable references shared by the resource events.
func issuableRef(kinds ...string) []ent.Field {
	if len(kinds) == 0 {
		kinds = []string{"Issue", "MergeRequest"}
	}
	return []ent.Field{
		field.Enum("issuable_type").Values(kinds...),
		field.Int("issue_id").Optional().Nillable(),
		field.Int("merge_request_id").Optional().Nillable(),
		field.Int("user_id").Optional().Nillable(),
		field.Time("created_at").Immutable().Default(now),
	}
}

// issuableEdges returns the edges of issuableRef's keys.
func issuableEdges() []ent.Edge {
	return []ent.Edge{
		edge.To("issue", Issue.Type).Field("issue_id").Unique().Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("merge_request", MergeRequest.Type).Field("merge_request_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("user", User.Type).Field("user_id").Unique().Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// issuableIndexes returns the indexes that read an issuable's events in order.
func issuableIndexes() []ent.Index {
	return []ent.Index{index.Fields("issue_id", "id"), index.Fields("merge_request_id", "id")}
}

func skipGraphQL() []schema.Annotation { return []schema.Annotation{entgql.Skip(entgql.SkipAll)} }

// ResourceStateEvent is one state change of an issuable; source_commit and
// source_merge_request_id name what closed or merged it, when a commit or another merge
// request did (GitLab's columns of the same names).
type ResourceStateEvent struct{ ent.Schema }

// Fields returns the event fields.
func (ResourceStateEvent) Fields() []ent.Field {
	return append(issuableRef(), field.Enum("state").Values("opened", "closed", "reopened", "merged", "locked"),
		field.String("source_commit").Optional().Nillable().MaxLen(64),
		field.Int("source_merge_request_id").Optional().Nillable())
}

// Edges returns the issuable, the user and the source merge request (null once it is deleted).
func (ResourceStateEvent) Edges() []ent.Edge {
	return append(issuableEdges(), edge.To("source_merge_request", MergeRequest.Type).Field("source_merge_request_id").
		Unique().Annotations(entsql.OnDelete(entsql.SetNull)))
}

// Indexes returns the events of an issuable in order.
func (ResourceStateEvent) Indexes() []ent.Index { return issuableIndexes() }

// Annotations keeps the events out of GraphQL.
func (ResourceStateEvent) Annotations() []schema.Annotation { return skipGraphQL() }

// ResourceLabelEvent is a label added to or removed from an issuable.
type ResourceLabelEvent struct{ ent.Schema }

// Fields returns the event fields; label_id is null once the label is deleted. An issue's, a
// merge request's or an epic's: issue_id, merge_request_id or epic_id is set, as issuable_type
// says.
func (ResourceLabelEvent) Fields() []ent.Field {
	return append(issuableRef("Issue", "MergeRequest", "Epic"), field.Int("epic_id").Optional().Nillable(),
		field.Enum("action").Values("add", "remove"), field.Int("label_id").Optional().Nillable())
}

// Edges returns the issuable, the user and the label.
func (ResourceLabelEvent) Edges() []ent.Edge {
	return append(issuableEdges(),
		edge.To("epic", Epic.Type).Field("epic_id").Unique().Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("label", Label.Type).Field("label_id").Unique().Annotations(entsql.OnDelete(entsql.SetNull)))
}

// Indexes returns the events of an issuable, and of an epic, in order.
func (ResourceLabelEvent) Indexes() []ent.Index {
	return append(issuableIndexes(), index.Fields("epic_id", "id"))
}

// Annotations keeps the events out of GraphQL.
func (ResourceLabelEvent) Annotations() []schema.Annotation { return skipGraphQL() }

// ResourceMilestoneEvent is a milestone set on or removed from an issuable; state is the
// issuable's state at the time.
type ResourceMilestoneEvent struct{ ent.Schema }

// Fields returns the event fields; milestone_id is null once the milestone is deleted.
func (ResourceMilestoneEvent) Fields() []ent.Field {
	return append(issuableRef(), field.Enum("action").Values("add", "remove"),
		field.Int("milestone_id").Optional().Nillable(),
		field.Enum("state").Values("opened", "closed", "merged", "locked"))
}

// Edges returns the issuable, the user and the milestone.
func (ResourceMilestoneEvent) Edges() []ent.Edge {
	return append(issuableEdges(), edge.To("milestone", Milestone.Type).Field("milestone_id").Unique().
		Annotations(entsql.OnDelete(entsql.SetNull)))
}

// Indexes returns the events of an issuable in order.
func (ResourceMilestoneEvent) Indexes() []ent.Index { return issuableIndexes() }

// Annotations keeps the events out of GraphQL.
func (ResourceMilestoneEvent) Annotations() []schema.Annotation { return skipGraphQL() }
