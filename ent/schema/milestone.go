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

// Milestone is a project milestone or a group milestone: exactly one of project_id and
// group_id is set; iid counts within that project or group.
type Milestone struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Milestone) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the milestone fields; the dates are days (midnight UTC).
func (Milestone) Fields() []ent.Field {
	return []ent.Field{
		// GraphQL's iid is an ID (a String), presented by a resolver.
		field.Int("iid").Annotations(entgql.Skip()),
		field.String("title").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("TITLE")),
		field.Text("description").Optional().Nillable(),
		field.Enum("state").Values("active", "closed").Default("active").
			Annotations(entgql.Type("MilestoneStateEnum")),
		field.Time("due_date").Optional().Nillable(),
		field.Time("start_date").Optional().Nillable(),
		field.Int("project_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("group_id").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges returns the milestone's owner; a milestone goes with its project or group.
func (Milestone) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("group", Namespace.Type).Field("group_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the milestone indexes: iid and title are unique within the owner.
func (Milestone) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "iid").Unique(),
		index.Fields("group_id", "iid").Unique(),
		index.Fields("project_id", "title").Unique(),
		index.Fields("group_id", "title").Unique(),
	}
}

// Annotations makes milestones a GraphQL node type with Relay connections.
func (Milestone) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
