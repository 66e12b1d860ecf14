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

// MergeRequest asks to merge source_branch of source_project into target_branch of the project
// (the target); iid counts within the target project, shared with nothing else, never reused.
type MergeRequest struct{ ent.Schema }

// Mixin returns the timestamp mixin.
func (MergeRequest) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

// Fields returns the merge request fields.
func (MergeRequest) Fields() []ent.Field {
	return []ent.Field{
		// project_id is the target project; GraphQL presents ids, iid and states through
		// resolvers, as for issues.
		field.Int("project_id").Annotations(entgql.Skip()),
		field.Int("iid").Annotations(entgql.Skip()),
		// source_project_id equals project_id unless the merge request comes from a fork; it is
		// null once the fork is deleted (GitLab keeps the merge request).
		field.Int("source_project_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.String("source_branch").NotEmpty().MaxLen(255),
		field.String("target_branch").NotEmpty().MaxLen(255),
		field.String("title").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("TITLE")),
		field.Text("description").Optional().Nillable(),
		// locked is GitLab's short-lived state while a merge runs.
		field.Enum("state").Values("opened", "closed", "locked", "merged").Default("opened").
			Annotations(entgql.Skip()),
		// draft is derived from the title ("Draft:", "[Draft]", "(Draft)") on every write and
		// stored so the wip filter is an indexed column.
		field.Bool("draft").Default(false),
		field.Int("author_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Int("milestone_id").Optional().Nillable().Annotations(entgql.Skip()),
		// merge_status is GitLab's merge_status state machine: unchecked, checking,
		// can_be_merged, cannot_be_merged, cannot_be_merged_recheck.
		field.String("merge_status").Default("unchecked").MaxLen(40).Annotations(entgql.Skip()),
		field.Text("merge_error").Optional().Nillable(),
		// sha is the source branch head the latest diff version was taken at.
		field.String("sha").Optional().Nillable().MaxLen(64),
		field.String("merge_commit_sha").Optional().Nillable().MaxLen(64),
		field.String("squash_commit_sha").Optional().Nillable().MaxLen(64),
		field.String("rebase_commit_sha").Optional().Nillable().MaxLen(64),
		// merge_ref_sha is the commit a merge would make, from the last mergeability check
		// (refs/merge-requests/:iid/merge); in_progress_merge_commit_sha is set while a
		// merge writes, so a second merge of the same merge request waits or is refused.
		field.String("merge_ref_sha").Optional().Nillable().MaxLen(64).Annotations(entgql.Skip()),
		field.String("in_progress_merge_commit_sha").Optional().Nillable().MaxLen(64).Annotations(entgql.Skip()),
		field.Int("merged_by_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("merged_at").Optional().Nillable(),
		field.Int("closed_by_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("closed_at").Optional().Nillable(),
		// merge_user_id is who set auto-merge (merge_when_pipeline_succeeds) until merged.
		field.Int("merge_user_id").Optional().Nillable().Annotations(entgql.Skip()),
		field.Bool("merge_when_pipeline_succeeds").Default(false),
		field.String("auto_merge_strategy").Optional().Nillable().MaxLen(64).Annotations(entgql.Skip()),
		field.Time("prepared_at").Optional().Nillable(),
		field.Bool("discussion_locked").Optional().Nillable().Annotations(entgql.Skip()),
		// force_remove_source_branch is the author's choice at create/update;
		// should_remove_source_branch is the merger's, given to the merge.
		field.Bool("force_remove_source_branch").Optional().Nillable(),
		field.Bool("should_remove_source_branch").Optional().Nillable(),
		field.Bool("squash").Default(false),
		field.Text("merge_commit_message").Optional().Nillable().Annotations(entgql.Skip()),
		field.Text("squash_commit_message").Optional().Nillable().Annotations(entgql.Skip()),
		field.Bool("allow_collaboration").Default(false),
		field.Int("approvals_before_merge").Optional().Nillable().Annotations(entgql.Skip()),
		// latest_diff_id is the newest diff version (null until the first is recorded).
		field.Int("latest_diff_id").Optional().Nillable().Annotations(entgql.Skip()),
		// time_estimate and total_time_spent are seconds; total_time_spent is the sum of the
		// merge request's timelogs, kept in step in each timelog's transaction.
		field.Int("time_estimate").Default(0),
		field.Int("total_time_spent").Default(0),
		// user_notes_count is kept by the notes domain, as for issues.
		field.Int("user_notes_count").Default(0),
		field.Bool("imported").Default(false).Annotations(entgql.Skip()),
	}
}

// Edges returns the merge request's projects, people, milestone, labels, assignees, reviewers,
// diff versions and approvals.
func (MergeRequest) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("project", Project.Type).Field("project_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("source_project", Project.Type).Field("source_project_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("author", User.Type).Field("author_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("merged_by", User.Type).Field("merged_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("closed_by", User.Type).Field("closed_by_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("merge_user", User.Type).Field("merge_user_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("milestone", Milestone.Type).Field("milestone_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull), entgql.Skip()),
		edge.To("label_links", MergeRequestLabel.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("assignee_links", MergeRequestAssignee.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("reviewer_links", MergeRequestReviewer.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("diffs", MergeRequestDiff.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
		edge.To("approvals", MergeRequestApproval.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip()),
	}
}

// Indexes returns the merge request indexes: the iid, and the columns the list filters start
// from (state and date, branches, people).
func (MergeRequest) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "iid").Unique(),
		index.Fields("project_id", "state", "created_at", "id"),
		// A project's merge requests in a state by id, with the default order's key: when a
		// label filter drives the list (the labels' links merge-joined by merge request id),
		// each linked merge request's project and state are checked, and the page sorted, from
		// this index alone, which PostgreSQL then prefers to walking the state's merge requests
		// newest first and probing the links of each (docs/PERFORMANCE.md, 13,276 → 1,590
		// buffers for labels=l00,l01&state=opened at 100,000).
		index.Fields("project_id", "state", "id", "created_at"),
		index.Fields("project_id", "created_at", "id"),
		index.Fields("source_project_id", "source_branch"),
		index.Fields("project_id", "target_branch"),
		index.Fields("milestone_id"),
		index.Fields("author_id"),
		index.Fields("merged_by_id"),
	}
}

// Annotations makes merge requests a GraphQL node type with Relay connections.
func (MergeRequest) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// MergeRequestLabel applies a label to a merge request.
type MergeRequestLabel struct{ ent.Schema }

// Fields returns the link fields.
func (MergeRequestLabel) Fields() []ent.Field {
	return []ent.Field{field.Int("merge_request_id"), field.Int("label_id")}
}

// Edges returns the linked merge request and label; the link goes with either.
func (MergeRequestLabel) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("merge_request", MergeRequest.Type).Ref("label_links").Field("merge_request_id").Unique().Required(),
		edge.To("label", Label.Type).Field("label_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the link indexes: a label is applied once; a label's merge requests are
// found from the label alone.
func (MergeRequestLabel) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_id", "label_id").Unique(), index.Fields("label_id", "merge_request_id")}
}

// Annotations keeps label links out of GraphQL.
func (MergeRequestLabel) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestAssignee assigns a user to a merge request.
type MergeRequestAssignee struct{ ent.Schema }

// Fields returns the assignment fields.
func (MergeRequestAssignee) Fields() []ent.Field {
	return []ent.Field{field.Int("merge_request_id"), field.Int("user_id")}
}

// Edges returns the merge request and the user; the assignment goes with either.
func (MergeRequestAssignee) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("merge_request", MergeRequest.Type).Ref("assignee_links").Field("merge_request_id").Unique().Required(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the assignment indexes.
func (MergeRequestAssignee) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations keeps assignments out of GraphQL.
func (MergeRequestAssignee) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestReviewer asks a user to review a merge request; state follows GitLab's
// reviewer states (unreviewed, reviewed, requested_changes, approved, unapproved, review_started).
type MergeRequestReviewer struct{ ent.Schema }

// Fields returns the reviewer fields.
func (MergeRequestReviewer) Fields() []ent.Field {
	return []ent.Field{
		field.Int("merge_request_id"), field.Int("user_id"),
		field.String("state").Default("unreviewed").MaxLen(32),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the merge request and the user; the request goes with either.
func (MergeRequestReviewer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("merge_request", MergeRequest.Type).Ref("reviewer_links").Field("merge_request_id").Unique().Required(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the reviewer indexes.
func (MergeRequestReviewer) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_id", "user_id").Unique(), index.Fields("user_id")}
}

// Annotations keeps reviewers out of GraphQL's generated types.
func (MergeRequestReviewer) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestApproval is one user's approval of a merge request.
type MergeRequestApproval struct{ ent.Schema }

// Fields returns the approval fields.
func (MergeRequestApproval) Fields() []ent.Field {
	return []ent.Field{
		field.Int("merge_request_id"), field.Int("user_id"),
		// patch_id_sha is the diff the approval was given to (reset_approvals_on_push).
		field.String("patch_id_sha").Optional().Nillable().MaxLen(64),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns the approved merge request and the approver.
func (MergeRequestApproval) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("merge_request", MergeRequest.Type).Ref("approvals").Field("merge_request_id").Unique().Required(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the approval indexes: one approval per user.
func (MergeRequestApproval) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merge_request_id", "user_id").Unique(), index.Fields("user_id", "merge_request_id")}
}

// Annotations keeps approvals out of GraphQL's generated types.
func (MergeRequestApproval) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// MergeRequestBlock makes blocking_merge_request_id a prerequisite of blocked_merge_request_id
// (Premium's merge request dependencies).
type MergeRequestBlock struct{ ent.Schema }

// Fields returns the block fields.
func (MergeRequestBlock) Fields() []ent.Field {
	return []ent.Field{
		field.Int("blocking_merge_request_id"), field.Int("blocked_merge_request_id"),
		field.Time("created_at").Immutable().Default(now),
	}
}

// Edges returns both merge requests; a block goes with either.
func (MergeRequestBlock) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("blocking", MergeRequest.Type).Field("blocking_merge_request_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("blocked", MergeRequest.Type).Field("blocked_merge_request_id").Unique().Required().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes returns the block indexes.
func (MergeRequestBlock) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("blocking_merge_request_id", "blocked_merge_request_id").Unique(),
		index.Fields("blocked_merge_request_id"),
	}
}

// Annotations keeps blocks out of GraphQL.
func (MergeRequestBlock) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
