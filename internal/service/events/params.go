package events

import "time"

// ListParams are the filters every event listing takes, in GitLab's spelling. The zero value
// filters nothing and sorts newest first.
type ListParams struct {
	// Action keeps one action (action): one of Actions.
	Action string
	// TargetType keeps one target kind (target_type): one of TargetTypes (lowercase).
	TargetType string
	// Before keeps events created before this day began; After those created after this day
	// ended (before, after: dates, UTC).
	Before, After *time.Time
	// Sort is asc or desc (sort, default desc), by creation.
	Sort string
	// Scope "all" widens GET /events from the caller's own events to every event of the
	// projects the caller is a member of (scope).
	Scope string
}

// Actions are the values of the action filter (GitLab's Event.actions).
var Actions = []string{"created", "updated", "closed", "reopened", "pushed", "commented", "merged",
	"joined", "left", "destroyed", "expired", "approved"}

// targetTypes maps the target_type filter's values to the stored class names.
var targetTypes = map[string]string{
	"issue":         TargetIssue,
	"milestone":     TargetMilestone,
	"merge_request": TargetMergeRequest,
	"note":          TargetNote,
	"project":       TargetProject,
	"snippet":       TargetSnippet,
	"user":          TargetUser,
	"wiki":          TargetWikiPage,
	"design":        TargetDesign,
}

// TargetTypes are the values of the target_type filter (GitLab's Event.target_types).
var TargetTypes = []string{"issue", "milestone", "merge_request", "note", "project", "snippet", "user", "wiki", "design"}

// SortValues are the values of sort.
var SortValues = []string{"asc", "desc"}
