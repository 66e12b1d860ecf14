package issues

import (
	"anvil/internal/filter"
)

// ListParams are GitLab's issue list filters (GET /issues, /groups/:id/issues,
// /projects/:id/issues); REST and GraphQL fill the same fields.
type ListParams struct {
	// State (state): opened, closed or all ("" = all).
	State string
	// Labels (labels, not[labels]): label titles, all of which an issue must have; None/Any.
	Labels filter.Field[string]
	// Milestone (milestone, not[milestone]): milestone titles; None, Any, Upcoming, Started.
	Milestone filter.Field[string]
	// AuthorID (author_id, not[author_id]) and AuthorUsername (author_username, not[...]).
	AuthorID       filter.Field[int]
	AuthorUsername filter.Field[string]
	// AssigneeID (assignee_id, not[assignee_id]; None/Any) and AssigneeUsername
	// (assignee_username[], not[assignee_username]).
	AssigneeID       filter.Field[int]
	AssigneeUsername filter.Field[string]
	// MyReactionEmoji (my_reaction_emoji, not[my_reaction_emoji]): the signed-in caller's
	// reactions by emoji name; None, Any.
	MyReactionEmoji filter.Field[string]
	// MilestoneID (milestone_id): milestone ids (a milestone's issues).
	MilestoneID filter.Field[int]
	// IIDs (iids[], not[iids]): issue iids.
	IIDs filter.Field[int]
	// IssueType (issue_type, not[issue_type]): issue, incident, test_case, task.
	IssueType filter.Field[string]
	// DueDate (due_date): 0 (none), any, today, tomorrow, overdue, week, month,
	// next_month_and_previous_two_weeks.
	DueDate string
	// Search (search) matches in the fields In names (in: title, description; both by default).
	Search string
	In     []string
	// Confidential (confidential): only confidential or only public issues.
	Confidential *bool
	// Created and Updated are created_after/before and updated_after/before; Due and Closed
	// are GraphQL's dueAfter/dueBefore and closedAfter/closedBefore.
	Created, Updated, Due, Closed filter.Range
	// IncludeArchived keeps the issues of archived projects in a group's list (GitLab's
	// non_archived=false; group lists leave them out by default).
	IncludeArchived bool
	// Scope (scope): created_by_me, assigned_to_me or all (GitLab's default: all for project
	// and group lists, created_by_me for GET /issues).
	Scope string
	// Or is GraphQL's or: {...}: each list given matches issues having any one of its values
	// (the lists themselves are ANDed with each other and with the other filters).
	Or OrParams
}

// OrParams are the any-of filters (GitLab's UnionedIssueFilterInput).
type OrParams struct {
	// AssigneeUsernames: assigned to any of these users.
	AssigneeUsernames []string
	// AuthorUsernames: written by any of these users.
	AuthorUsernames []string
	// LabelNames: having any of these labels (by title).
	LabelNames []string
}

// DueDates are the due_date filter's values.
var DueDates = []string{"0", "any", "today", "tomorrow", "overdue", "week", "month", "next_month_and_previous_two_weeks"}

// Order is a list's order: order_by and sort.
type Order struct {
	By   string // one of OrderColumns; created_at by default
	Sort string // asc or desc (default)
}

// OrderColumns are GitLab's order_by values for issues (weight is Premium's; every tier is on).
var OrderColumns = []string{"created_at", "updated_at", "priority", "due_date", "relative_position",
	"label_priority", "milestone_due", "popularity", "title", "weight"}

// Scopes are the scope values.
var Scopes = []string{"created_by_me", "assigned_to_me", "all"}
