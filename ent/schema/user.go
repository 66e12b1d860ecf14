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

// User is an account: a human, an administrator or a bot behind a project or group access token.
type User struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (User) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the user's profile, state and administrative fields, named as GitLab names them.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("username").NotEmpty().MaxLen(255).Unique().
			Annotations(entgql.OrderField("USERNAME")),
		field.String("name").MaxLen(255).Default("").
			Annotations(entgql.OrderField("NAME")),
		field.String("email").MaxLen(255).Unique().Annotations(entgql.Skip()),
		field.String("password_hash").Sensitive().Default("").Annotations(entgql.Skip()),
		field.Enum("state").Values("active", "blocked", "deactivated", "banned", "ldap_blocked", "blocked_pending_approval").Default("active"),
		field.Bool("admin").Default(false).Annotations(entgql.Skip()),
		// user_type is GitLab's: human, project_bot, group_bot (shown as project_bot), service_account, ...
		field.String("user_type").Default("human").Annotations(entgql.Skip()),
		field.Bool("external").Default(false).Annotations(entgql.Skip()),
		field.Bool("private_profile").Default(false).Annotations(entgql.Skip()),
		// failed_attempts counts wrong passwords since the last successful sign-in (Devise's
		// lockable column, as GitLab keeps it); locked_until is when the lock they caused ends.
		field.Int("failed_attempts").Default(0).NonNegative().Annotations(entgql.Skip()),
		field.Time("locked_until").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("bio").MaxLen(255).Default(""),
		field.String("location").MaxLen(255).Default(""),
		field.String("public_email").MaxLen(255).Default(""),
		field.String("skype").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("linkedin").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("twitter").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("discord").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("website_url").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("organization").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("job_title").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("pronouns").MaxLen(50).Default("").Annotations(entgql.Skip()),
		field.String("note").MaxLen(1000).Default("").Annotations(entgql.Skip()),
		field.String("commit_email").MaxLen(255).Default("").Annotations(entgql.Skip()),
		field.String("avatar_url").MaxLen(1024).Default("").Annotations(entgql.Skip()),
		field.Int("projects_limit").Default(100000).Annotations(entgql.Skip()),
		field.Bool("can_create_group").Default(true).Annotations(entgql.Skip()),
		field.Int("theme_id").Default(3).Annotations(entgql.Skip()),
		field.Int("color_scheme_id").Default(1).Annotations(entgql.Skip()),
		field.Bool("two_factor_enabled").Default(false).Annotations(entgql.Skip()),
		field.Bool("auditor").Default(false).Annotations(entgql.Skip()),
		field.Int("sign_in_count").Default(0).Annotations(entgql.Skip()),
		field.Time("last_sign_in_at").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("current_sign_in_at").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("last_sign_in_ip").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("current_sign_in_ip").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("last_activity_on").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("confirmed_at").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("created_by_id").Optional().Nillable().Annotations(entgql.Skip()),
		// bot_resource_* name the project or namespace a bot user's access token belongs to.
		field.Int("bot_project_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("bot_namespace_id").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

// Edges returns the user's namespace, memberships, tokens and attributes.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", Member.Type).Annotations(entgql.Skip()),
		// approval_rules are the approval rules naming the user as an approver.
		edge.From("approval_rules", ApprovalRule.Type).Ref("users").Annotations(entgql.Skip()),
		edge.To("tokens", PersonalAccessToken.Type).Annotations(entgql.Skip()),
		edge.To("custom_attributes", UserCustomAttribute.Type).Annotations(entgql.Skip()),
		edge.To("identities", Identity.Type).Annotations(entgql.Skip()),
		edge.To("created_projects", Project.Type).Annotations(entgql.Skip()),
		edge.To("namespace", Namespace.Type).Unique().Annotations(entgql.Skip()),
		edge.To("stars", ProjectStar.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		// A user's events go with the user, as in GitLab (events.author_id cascades).
		edge.To("events", Event.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		// created_by is the administrator who created the account (null when self-registered).
		edge.To("created_users", User.Type).Annotations(entgql.Skip()).
			From("created_by").Field("created_by_id").Unique().Annotations(entgql.Skip()),
	}
}

// Indexes returns the user indexes.
func (User) Indexes() []ent.Index {
	return []ent.Index{index.Fields("state"), index.Fields("created_at")}
}

// Annotations returns the GraphQL mapping.
func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
