package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RedirectRoute keeps an old full path of a project or namespace (GitLab's redirect_routes):
// renames and transfers leave one for the moved project or group and for each project and
// group below it, so that old paths keep resolving until a new project or group takes them.
type RedirectRoute struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (RedirectRoute) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the redirect fields. lower_path is path in lower case, the key lookups use:
// GitLab matches paths without regard to case.
func (RedirectRoute) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("source_type").Values("project", "namespace"),
		field.Int("source_id"),
		field.String("path").NotEmpty().MaxLen(2048),
		field.String("lower_path").NotEmpty().MaxLen(2048).Unique(),
	}
}

// Indexes returns the redirect indexes: a source's redirects are found and removed together.
func (RedirectRoute) Indexes() []ent.Index {
	return []ent.Index{index.Fields("source_type", "source_id")}
}

// Annotations keeps RedirectRoute out of the GraphQL graph.
func (RedirectRoute) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
