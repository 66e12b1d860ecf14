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

// ApprovalRule is a merge request approval rule (GitLab Premium): a project's rule
// (merge_request_id null; ApprovalProjectRule) or one merge request's own rule
// (ApprovalMergeRequestRule), asking approvals_required approvals from its users and the
// members of its groups (any eligible member for any_approver).
type ApprovalRule struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (ApprovalRule) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the rule fields.
func (ApprovalRule) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		field.Int("merge_request_id").Optional().Nillable(),
		field.String("name").NotEmpty().MaxLen(255),
		field.Enum("rule_type").Values("regular", "any_approver", "code_owner", "report_approver").Default("regular"),
		// report_type names the report of a report_approver rule (license_scanning, code_coverage).
		field.String("report_type").Optional().Nillable().MaxLen(64),
		field.Int("approvals_required").Default(0),
		// applies_to_all_protected_branches scopes a project rule to every protected branch;
		// otherwise its protected_branches edge scopes it (none: every branch).
		field.Bool("applies_to_all_protected_branches").Default(false),
		// approval_project_rule_id is the project rule a merge request rule was made from
		// (its source_rule).
		field.Int("approval_project_rule_id").Optional().Nillable(),
		// section is a code owner rule's CODEOWNERS section.
		field.String("section").Optional().Nillable().MaxLen(255),
	}
}

// Edges returns the rule's project, merge request, approvers and protected branches; a rule
// goes with its project or merge request.
func (ApprovalRule) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("merge_request", MergeRequest.Type).Field("merge_request_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		// source_rule is many merge request rules to one project rule (derived_rules).
		edge.To("derived_rules", ApprovalRule.Type).Annotations(entsql.OnDelete(entsql.SetNull)).
			From("source_rule").Field("approval_project_rule_id").Unique(),
		// users, groups and protected_branches are many to many: join tables
		// approval_rule_users, approval_rule_groups, approval_rule_protected_branches.
		edge.To("users", User.Type),
		edge.To("groups", Namespace.Type),
		edge.To("protected_branches", ProtectedBranch.Type),
	}
}

// Indexes returns the rule indexes: a project's rules and a merge request's rules.
func (ApprovalRule) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "merge_request_id"), index.Fields("merge_request_id")}
}

// Annotations keeps approval rules out of GraphQL's generated types.
func (ApprovalRule) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
