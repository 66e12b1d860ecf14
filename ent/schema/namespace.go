package schema

import (
	"crypto/rand"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Namespace is a group (kind "group") or a user's personal namespace (kind "user"). As in GitLab,
// group ids are namespace ids, so a project's namespace_id means the same thing for both kinds.
type Namespace struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (Namespace) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the namespace fields and the group settings GitLab exposes.
func (Namespace) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("NAME")),
		field.String("path").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("PATH")),
		// full_path is the slash-joined path from the top-level namespace; kept in step on rename.
		field.String("full_path").NotEmpty().MaxLen(2048).Unique(),
		field.Enum("kind").Values("user", "group").Default("group"),
		field.Enum("visibility").Values("private", "internal", "public").Default("private"),
		field.String("description").MaxLen(2000).Default(""),
		field.Int("parent_id").Optional().Nillable(),
		field.Int("owner_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("avatar_url").MaxLen(1024).Default("").Annotations(entgql.Skip()),
		field.String("project_creation_level").Default("developer").Annotations(entgql.Skip()),
		field.String("subgroup_creation_level").Default("maintainer").Annotations(entgql.Skip()),
		field.Bool("request_access_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("share_with_group_lock").Default(false).Annotations(entgql.Skip()),
		field.Bool("membership_lock").Default(false).Annotations(entgql.Skip()),
		field.Bool("require_two_factor_authentication").Default(false).Annotations(entgql.Skip()),
		field.Int("two_factor_grace_period").Default(48).Annotations(entgql.Skip()),
		field.Bool("lfs_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("emails_enabled").Default(true).Annotations(entgql.Skip()),
		field.Bool("mentions_disabled").Default(false).Annotations(entgql.Skip()),
		field.String("default_branch").Default("").Annotations(entgql.Skip()),
		field.String("shared_runners_setting").Default("enabled").Annotations(entgql.Skip()),
		field.Bool("auto_devops_enabled").Optional().Nillable().Annotations(entgql.Skip()),
		field.Bool("archived").Default(false).Annotations(entgql.Skip()),
		// runners_token is the group's legacy runner registration token (GitLab's GR1348941
		// prefix); nullable so that adding it to an existing database needs no backfill.
		field.String("runners_token").Optional().DefaultFunc(newGroupRunnersToken).Sensitive().
			Annotations(entgql.Skip()),
	}
}

// newGroupRunnersToken returns a fresh group runner registration token.
func newGroupRunnersToken() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "GR1348941" + string(b)
}

// Edges returns the namespace tree, owner, projects, members and shares.
func (Namespace) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("children", Namespace.Type).Annotations(entgql.Skip()).
			From("parent").Field("parent_id").Unique().Annotations(entgql.Skip()),
		edge.From("owner", User.Type).Ref("namespace").Field("owner_id").Unique().Annotations(entgql.Skip()),
		edge.To("projects", Project.Type).Annotations(entgql.Skip()),
		edge.To("members", Member.Type).Annotations(entgql.Skip()),
		edge.To("shared_with", GroupGroupLink.Type).Annotations(entgql.Skip()),
		edge.To("shares_received", GroupGroupLink.Type).Annotations(entgql.Skip()),
		edge.To("project_shares", ProjectGroupLink.Type).Annotations(entgql.Skip()),
		edge.To("custom_attributes", GroupCustomAttribute.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("events", Event.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		// approval_rules are the approval rules naming the group as approvers.
		edge.From("approval_rules", ApprovalRule.Type).Ref("groups").Annotations(entgql.Skip()),
	}
}

// Indexes returns the namespace indexes.
func (Namespace) Indexes() []ent.Index {
	return []ent.Index{index.Fields("parent_id", "path"), index.Fields("kind")}
}

// Annotations returns the GraphQL mapping: a namespace is a Group in the graph.
func (Namespace) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Type("Group"), entgql.RelayConnection()}
}
