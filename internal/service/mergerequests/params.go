package mergerequests

import (
	"anvil/internal/filter"
)

// ListParams are GitLab's merge request list filters (GET /merge_requests,
// /groups/:id/merge_requests, /projects/:id/merge_requests, a milestone's merge requests, and
// GraphQL's mergeRequests connections); REST and GraphQL fill the same fields.
type ListParams struct {
	// State (state): opened, closed, locked, merged or all ("" = all).
	State string
	// Labels (labels, not[labels]): label titles, all of which a merge request must have;
	// None/Any.
	Labels filter.Field[string]
	// Milestone (milestone, not[milestone]): milestone titles; None, Any, Upcoming, Started.
	Milestone filter.Field[string]
	// AuthorID (author_id, not[author_id]) and AuthorUsername (author_username, not[...]).
	AuthorID       filter.Field[int]
	AuthorUsername filter.Field[string]
	// AssigneeID (assignee_id, not[assignee_id]; None/Any) and AssigneeUsername
	// (assignee_username[], not[assignee_username]; several are all required).
	AssigneeID       filter.Field[int]
	AssigneeUsername filter.Field[string]
	// ReviewerID (reviewer_id, not[reviewer_id]; None/Any) and ReviewerUsername
	// (reviewer_username, not[reviewer_username]).
	ReviewerID       filter.Field[int]
	ReviewerUsername filter.Field[string]
	// MergeUserID (merge_user_id) and MergeUserUsername (merge_user_username): who merged it
	// (or set it to merge automatically, until merged).
	MergeUserID       filter.Field[int]
	MergeUserUsername filter.Field[string]
	// ApprovedByIDs (approved_by_ids[]) and ApprovedByUsernames (approved_by_usernames[],
	// GraphQL's approvedBy): approved by every one of the first MaxApprovalFilter users; None
	// (no approval), Any (some).
	ApprovedByIDs       filter.Field[int]
	ApprovedByUsernames filter.Field[string]
	// ApproverIDs (approver_ids[]) and ApproverUsernames (GraphQL's approver): each of the
	// first MaxApprovalFilter users may approve it (named, directly or through a group, by one
	// of its own approval rules, or of its project's when it has none); None (no rules
	// anywhere), Any.
	ApproverIDs       filter.Field[int]
	ApproverUsernames filter.Field[string]
	// Approved (approved): yes, with an approval; no, without.
	Approved *bool
	// MyReactionEmoji (my_reaction_emoji, not[my_reaction_emoji]): the signed-in caller's
	// reactions by emoji name; None, Any.
	MyReactionEmoji filter.Field[string]
	// MilestoneID: milestone ids (a milestone's merge requests).
	MilestoneID filter.Field[int]
	// IIDs (iids[]): merge request iids.
	IIDs filter.Field[int]
	// SourceBranch (source_branch; GraphQL's sourceBranches, not.sourceBranches) and
	// TargetBranch (target_branch; targetBranches): branch names, one of which must match.
	SourceBranch, TargetBranch filter.Field[string]
	// SourceProjectID (source_project_id): the project the source branch lives in.
	SourceProjectID *int
	// Draft (wip=yes|no, GraphQL's draft): only drafts, or only ready merge requests.
	Draft *bool
	// Search (search) matches in the fields In names (in: title, description; both by default).
	Search string
	In     []string
	// Created, Updated (created_after/before, updated_after/before), Merged (GraphQL's
	// mergedAfter/mergedBefore) and Deployed (deployed_after/before), inclusive.
	Created, Updated, Merged, Deployed filter.Range
	// Environment (environment): deployed to that environment.
	Environment *string
	// IncludeArchived keeps the merge requests of archived projects in a group's list (GitLab's
	// non_archived=false; group lists leave them out by default).
	IncludeArchived bool
	// Scope (scope): created_by_me, assigned_to_me or all (GitLab's default: all for project
	// and group lists, created_by_me for GET /merge_requests).
	Scope string
}

// MaxApprovalFilter is how many users approved_by_ids and approver_ids consider; GitLab's
// ByApprovalsFinder keeps the first five and ignores the rest.
const MaxApprovalFilter = 5

// States are the state filter's values.
var States = []string{"opened", "closed", "locked", "merged", "all"}

// Order is a list's order: order_by and sort.
type Order struct {
	By   string // one of OrderColumns; created_at by default
	Sort string // asc or desc (default)
}

// OrderColumns are GitLab's order_by values for merge requests (MergeRequestsHelpers.sort_options).
var OrderColumns = []string{"created_at", "label_priority", "milestone_due", "popularity", "priority",
	"title", "updated_at", "merged_at"}

// Scopes are the scope values, with GitLab's older dashed spellings; Scope normalizes them.
var Scopes = []string{"created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me"}
