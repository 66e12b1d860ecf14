package events

import "time"

// ListParams are the filters every event listing takes, in GitLab's spelling, and the parent
// the list is under: a user (GET /users/:id/events), a project (GET /projects/:id/events), or
// neither, the caller's own events (GET /events). The zero value filters nothing.
type ListParams struct {
	// User is the id or username of the user whose events are listed.
	User string
	// Project is the id or full path of the project whose events are listed.
	Project string
	// Action keeps one action (action): one of Actions.
	Action string
	// TargetType keeps one target kind (target_type): one of TargetTypes (lowercase).
	TargetType string
	// Before keeps events created before this day began; After those created after this day
	// ended (before, after: dates, UTC).
	Before, After *time.Time
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

// Order is the list's order: Sort asc or desc (sort, default desc), by creation.
type Order struct{ Sort string }

// SortValues are the values of sort.
var SortValues = []string{"asc", "desc"}
