package webhooks

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/service/issues"
)

// IssueHooks is the issue observer that fires issue hooks (issues.Observer): opened, closed,
// reopened and updated issues reach the hooks subscribed to issue events, confidential ones
// those subscribed to confidential issue events.
type IssueHooks struct{ s *Service }

// IssueObserver returns the observer to append to the issue service's observers.
func (s *Service) IssueObserver() IssueHooks { return IssueHooks{s: s} }

// IssueChanged queues the issue hook deliveries of ch in its transaction.
func (o IssueHooks) IssueChanged(ctx context.Context, actor *authz.Actor, ch issues.Change) error {
	if ch.After == nil || actor.IsAnonymous() {
		return nil
	}
	action := map[string]string{"created": "open", "closed": "close", "reopened": "reopen", "updated": "update"}[ch.Action]
	if action == "" {
		return nil
	}
	is := ch.After
	p := is.Edges.Project
	if p == nil {
		var err error
		if p, err = o.s.Client.Project.Query().Where(project.ID(is.ProjectID)).WithNamespace().Only(ctx); err != nil {
			return err
		}
	}
	ev := IssueEvent
	if is.Confidential {
		ev = ConfidentialIssueEvent
	}
	return o.s.Trigger(ctx, Target{Project: p}, ev, o.s.issuePayload(actor.User, p, ch, action))
}

// LabelData is a label in hook payloads.
type LabelData struct {
	ID          int     `json:"id"`
	Title       string  `json:"title"`
	Color       string  `json:"color"`
	ProjectID   *int    `json:"project_id"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	Template    bool    `json:"template"`
	Description *string `json:"description"`
	Type        string  `json:"type"`
	GroupID     *int    `json:"group_id"`
}

// issuePayload is GitLab's issue hook payload.
func (s *Service) issuePayload(u *ent.User, p *ent.Project, ch issues.Change, action string) map[string]any {
	is := ch.After
	pd := s.projectData(p)
	labels := issueLabels(is)
	attrs := issueHookAttrs(is, pd, labels)
	attrs["updated_by_id"] = u.ID
	attrs["type"] = issueType(is)
	attrs["action"] = action
	// A confidential issue's event_type is confidential_issue (GitLab's Issuable data builder).
	eventType := "issue"
	if is.Confidential {
		eventType = "confidential_issue"
	}
	out := map[string]any{
		"object_kind": "issue", "event_type": eventType, "user": userData(u), "project": pd,
		"object_attributes": attrs, "labels": labels, "changes": issueChanges(ch),
		"repository": shortRepository(pd),
	}
	if assignees := issueAssignees(is); len(assignees) > 0 {
		out["assignees"] = assignees
	}
	return out
}

// issueHookAttrs is the issue object of hook payloads (GitLab's Issue#hook_attrs): the issue
// payload's object_attributes, and the issue of note and emoji payloads.
func issueHookAttrs(is *ent.Issue, pd ProjectData, labels []LabelData) map[string]any {
	assigneeIDs := []int{}
	for _, a := range issueAssignees(is) {
		assigneeIDs = append(assigneeIDs, a.ID)
	}
	var assigneeID any
	if len(assigneeIDs) > 0 {
		assigneeID = assigneeIDs[0]
	}
	var due, closedAt any
	if is.DueDate != nil {
		due = is.DueDate.Format("2006-01-02")
	}
	if is.ClosedAt != nil {
		closedAt = hookTime(*is.ClosedAt)
	}
	return map[string]any{
		"id": is.ID, "iid": is.Iid, "title": is.Title, "description": is.Description,
		"assignee_ids": assigneeIDs, "assignee_id": assigneeID, "author_id": is.AuthorID,
		"project_id": is.ProjectID, "milestone_id": is.MilestoneID, "created_at": hookTime(is.CreatedAt),
		"updated_at": hookTime(is.UpdatedAt), "closed_at": closedAt, "due_date": due,
		"state_id": stateID(string(is.State)), "state": string(is.State), "confidential": is.Confidential,
		"discussion_locked": is.DiscussionLocked,
		"url":               pd.WebURL + "/-/issues/" + strconv.Itoa(is.Iid), "labels": labels,
		"time_estimate": is.TimeEstimate, "total_time_spent": is.TotalTimeSpent, "time_change": 0,
		"human_total_time_spent": humanDuration(is.TotalTimeSpent), "human_time_estimate": humanDuration(is.TimeEstimate),
		"human_time_change": nil, "moved_to_id": nil, "duplicated_to_id": nil,
		"relative_position": is.RelativePosition, "updated_by_id": nil, "last_edited_at": nil, "last_edited_by_id": nil,
		"weight": is.Weight, "health_status": nil, "severity": "unknown",
	}
}

// issueAssignees are the issue's assignees in payload form.
func issueAssignees(is *ent.Issue) []UserData {
	out := []UserData{}
	for _, l := range is.Edges.AssigneeLinks {
		if l.Edges.User != nil {
			out = append(out, userData(l.Edges.User))
		}
	}
	return out
}

// issueType is the issue's type as payloads name it (Issue, Incident, Test_case, Task).
func issueType(is *ent.Issue) string {
	t := string(is.IssueType)
	if t == "" {
		return "Issue"
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// shortRepository is the repository object of issue, note and merge request payloads.
func shortRepository(pd ProjectData) map[string]any {
	return map[string]any{"name": pd.Name, "url": pd.URL, "description": pd.Description, "homepage": pd.Homepage}
}

// humanDuration is GitLab's short form of a duration in seconds ("1h 30m"), nil for none.
func humanDuration(seconds int) any {
	if seconds <= 0 {
		return nil
	}
	units := []struct {
		name string
		size int
	}{{"mo", 4 * 5 * 8 * 3600}, {"w", 5 * 8 * 3600}, {"d", 8 * 3600}, {"h", 3600}, {"m", 60}, {"s", 1}}
	var parts []string
	for _, u := range units {
		if n := seconds / u.size; n > 0 {
			parts = append(parts, strconv.Itoa(n)+u.name)
			seconds -= n * u.size
		}
	}
	return strings.Join(parts, " ")
}

// issueLabels are the issue's labels in payload form.
func issueLabels(is *ent.Issue) []LabelData {
	out := []LabelData{}
	for _, l := range is.Edges.LabelLinks {
		if l.Edges.Label != nil {
			out = append(out, labelData(l.Edges.Label))
		}
	}
	return out
}

// labelData is a label in payload form.
func labelData(lb *ent.Label) LabelData {
	typ := "ProjectLabel"
	if lb.GroupID != nil {
		typ = "GroupLabel"
	}
	return LabelData{ID: lb.ID, Title: lb.Title, Color: lb.Color, ProjectID: lb.ProjectID,
		CreatedAt: hookTime(lb.CreatedAt), UpdatedAt: hookTime(lb.UpdatedAt), Description: lb.Description,
		Type: typ, GroupID: lb.GroupID}
}

// issueChanges are the attributes an update changed, as {previous, current}.
func issueChanges(ch issues.Change) map[string]any {
	out := map[string]any{}
	if ch.Before == nil || ch.After == nil {
		return out
	}
	b, a := ch.Before, ch.After
	pair := func(name string, prev, cur any) { out[name] = map[string]any{"previous": prev, "current": cur} }
	if b.Title != a.Title {
		pair("title", b.Title, a.Title)
	}
	if str(b.Description) != str(a.Description) {
		pair("description", b.Description, a.Description)
	}
	if b.State != a.State {
		pair("state_id", stateID(string(b.State)), stateID(string(a.State)))
	}
	if b.Confidential != a.Confidential {
		pair("confidential", b.Confidential, a.Confidential)
	}
	if intOr(b.MilestoneID) != intOr(a.MilestoneID) {
		pair("milestone_id", b.MilestoneID, a.MilestoneID)
	}
	if bl, al := issueLabels(b), issueLabels(a); !sameLabels(bl, al) {
		pair("labels", bl, al)
	}
	if len(out) > 0 {
		pair("updated_at", hookTime(b.UpdatedAt), hookTime(a.UpdatedAt))
	}
	return out
}

func stateID(s string) int {
	if s == "closed" {
		return 2
	}
	return 1
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func intOr(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func sameLabels(a, b []LabelData) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}
