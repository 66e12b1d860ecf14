package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AccessRule is one entry of a protected branch's push, merge or unprotect rules: a role, or a
// specific user or group.
type AccessRule struct {
	ID          int    `json:"id"`
	AccessLevel int    `json:"access_level"`
	UserID      *int   `json:"user_id,omitempty"`
	GroupID     *int   `json:"group_id,omitempty"`
	DeployKeyID *int   `json:"deploy_key_id,omitempty"`
	Description string `json:"access_level_description,omitempty"`
}

// ProtectedBranch protects branches whose names match name (which may hold '*' wildcards).
type ProtectedBranch struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (ProtectedBranch) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the protection rules.
func (ProtectedBranch) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		field.String("name").NotEmpty().MaxLen(255),
		field.JSON("push_access_levels", []AccessRule{}),
		field.JSON("merge_access_levels", []AccessRule{}),
		field.JSON("unprotect_access_levels", []AccessRule{}),
		field.Bool("allow_force_push").Default(false),
		field.Bool("code_owner_approval_required").Default(false),
	}
}

// Edges returns the approval rules scoped to the protected branch (the inverse of their
// protected_branches).
func (ProtectedBranch) Edges() []ent.Edge {
	return []ent.Edge{edge.From("approval_rules", ApprovalRule.Type).Ref("protected_branches")}
}

// Indexes returns the indexes: one rule per name in a project.
func (ProtectedBranch) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "name").Unique()}
}

// Annotations keeps ProtectedBranch out of the generated graph.
func (ProtectedBranch) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// PushEvent records one accepted ref update of a push (over HTTP or through the API), with what
// activity events and push webhooks need.
type PushEvent struct{ ent.Schema }

// Fields returns the push record.
func (PushEvent) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		field.Int("user_id").Optional().Nillable(),
		field.String("ref"), // full ref name, refs/heads/main
		field.Enum("ref_type").Values("branch", "tag"),
		field.Enum("action").Values("created", "pushed", "removed"),
		field.String("before"), // 40 zeros when the ref is created
		field.String("after"),  // 40 zeros when the ref is removed
		field.Int("commit_count").Default(0),
		field.Strings("commit_ids").Optional(), // newest first, at most 20 as GitLab keeps
		field.String("commit_title").Default(""),
		field.Bool("delivered").Default(false), // set once events and webhooks consumed it
		field.Time("created_at").Immutable().Default(now),
	}
}

// Indexes returns the indexes.
func (PushEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at"), index.Fields("delivered")}
}

// Annotations keeps PushEvent out of the generated graph.
func (PushEvent) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// LastCommit caches the newest commit that changed a path as of a commit (the
// X-Gitlab-Last-Commit-Id of a file read, a tree's last commit). Both ends are immutable, so
// an entry never goes stale; finding one again means walking the history. Entries are bounded
// per project: the oldest go first (repos.lastCommitCache).
type LastCommit struct{ ent.Schema }

// Fields returns the cache entry.
func (LastCommit) Fields() []ent.Field {
	return []ent.Field{
		field.Int("project_id"),
		// key is the SHA-256 of the commit id, a NUL and the path, in hexadecimal: paths may
		// be longer than an index takes.
		field.String("key").MaxLen(64).Immutable(),
		field.String("last_commit_id").MaxLen(64).Immutable(),
	}
}

// Indexes returns the indexes: one entry per key in a project.
func (LastCommit) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "key").Unique()}
}

// Annotations keeps LastCommit out of the generated graph.
func (LastCommit) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
