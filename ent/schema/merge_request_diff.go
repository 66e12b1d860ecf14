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

// MergeRequestDiff is one diff version of a merge request, recorded when it is created and
// each time its source branch moves. Its commits and files are stored with it (and its head
// kept alive by a keep-around ref) so an old version stays readable after a force push.
type MergeRequestDiff struct{ ent.Schema }

// Fields returns the version fields.
func (MergeRequestDiff) Fields() []ent.Field {
	return []ent.Field{
		field.Int("merge_request_id"),
		field.String("head_commit_sha").Optional().Nillable().MaxLen(64),
		field.String("base_commit_sha").Optional().Nillable().MaxLen(64),
		field.String("start_commit_sha").Optional().Nillable().MaxLen(64),
		// state is collected, overflow or without_files (GitLab's older values are never written).
		field.String("state").Default("collected").MaxLen(40),
		// real_size is GitLab's string: the file count, with a "+" when the limits cut it.
		field.String("real_size").Optional().Nillable().MaxLen(32),
		field.String("patch_id_sha").Optional().Nillable().MaxLen(64),
		field.Int("commits_count").Default(0),
		field.Int("files_count").Default(0),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the merge request and the version's commits and files.
func (MergeRequestDiff) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("merge_request", MergeRequest.Type).Ref("diffs").Field("merge_request_id").Unique().Required(),
		edge.To("commits", MergeRequestDiffCommit.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("files", MergeRequestDiffFile.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the version indexes.
func (MergeRequestDiff) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_id", "id")}
}

// Annotations keeps versions out of GraphQL's generated types (resolvers present them).
func (MergeRequestDiff) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestDiffCommit is one commit of a diff version, newest first by relative_order.
type MergeRequestDiffCommit struct{ ent.Schema }

// Fields returns the commit fields (what the versions API presents, so an old version reads
// without the repository).
func (MergeRequestDiffCommit) Fields() []ent.Field {
	return []ent.Field{
		field.Int("merge_request_diff_id"),
		field.Int("relative_order"),
		field.String("sha").MaxLen(64),
		field.Strings("parent_ids").Optional(),
		field.Text("message"),
		field.String("author_name"),
		field.String("author_email"),
		field.Time("authored_date"),
		field.String("committer_name"),
		field.String("committer_email"),
		field.Time("committed_date"),
	}
}

// Edges returns the version.
func (MergeRequestDiffCommit) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("diff", MergeRequestDiff.Type).Ref("commits").Field("merge_request_diff_id").Unique().Required(),
	}
}

// Indexes returns the commit indexes.
func (MergeRequestDiffCommit) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_diff_id", "relative_order").Unique(), index.Fields("sha")}
}

// Annotations keeps version commits out of GraphQL.
func (MergeRequestDiffCommit) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestDiffFile is one changed file of a diff version, in git's order.
type MergeRequestDiffFile struct{ ent.Schema }

// Fields returns the file fields.
func (MergeRequestDiffFile) Fields() []ent.Field {
	return []ent.Field{
		field.Int("merge_request_diff_id"),
		field.Int("relative_order"),
		field.Text("old_path"),
		field.Text("new_path"),
		field.String("a_mode").MaxLen(8),
		field.String("b_mode").MaxLen(8),
		field.Bool("new_file").Default(false),
		field.Bool("renamed_file").Default(false),
		field.Bool("deleted_file").Default(false),
		field.Bool("too_large").Default(false),
		field.Bool("collapsed").Default(false),
		field.Bool("binary").Default(false),
		field.Bool("generated_file").Default(false),
		// diff is the patch text without its header lines; empty when too large or binary.
		field.Text("diff").Default(""),
	}
}

// Edges returns the version.
func (MergeRequestDiffFile) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("diff_version", MergeRequestDiff.Type).Ref("files").Field("merge_request_diff_id").Unique().Required(),
	}
}

// Indexes returns the file indexes.
func (MergeRequestDiffFile) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_diff_id", "relative_order").Unique()}
}

// Annotations keeps version files out of GraphQL.
func (MergeRequestDiffFile) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
