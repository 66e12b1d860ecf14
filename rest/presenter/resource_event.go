package presenter

import (
	"anvil/ent"
)

// StateEvent is a resource state event; source_commit and source_merge_request_id name what
// closed or merged the issuable when it was not a direct edit.
type StateEvent struct {
	ID                   int        `json:"id"`
	User                 *UserBasic `json:"user"`
	CreatedAt            Time       `json:"created_at"`
	ResourceType         string     `json:"resource_type"`
	ResourceID           *int       `json:"resource_id"`
	SourceCommit         *string    `json:"source_commit"`
	SourceMergeRequestID *int       `json:"source_merge_request_id"`
	State                string     `json:"state"`
}

// LabelEvent is a resource label event; label is null once the label is deleted.
type LabelEvent struct {
	ID           int         `json:"id"`
	User         *UserBasic  `json:"user"`
	CreatedAt    Time        `json:"created_at"`
	ResourceType string      `json:"resource_type"`
	ResourceID   *int        `json:"resource_id"`
	Label        *EventLabel `json:"label"`
	Action       string      `json:"action"`
}

// EventLabel is the label of a label event.
type EventLabel struct {
	ID          int     `json:"id"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Description *string `json:"description"`
}

// MilestoneEvent is a resource milestone event; milestone is null once it is deleted.
type MilestoneEvent struct {
	ID           int        `json:"id"`
	User         *UserBasic `json:"user"`
	CreatedAt    Time       `json:"created_at"`
	ResourceType string     `json:"resource_type"`
	ResourceID   *int       `json:"resource_id"`
	Milestone    *Milestone `json:"milestone"`
	Action       string     `json:"action"`
	State        string     `json:"state"` // the issuable's state when the event was recorded
}

// resourceID is the id of an event's issuable: the key its kind sets.
func resourceID(issueID, mergeRequestID *int) *int {
	if mergeRequestID != nil {
		return mergeRequestID
	}
	return issueID
}

// StateEvent renders one state event.
func (p *Presenter) StateEvent(e *ent.ResourceStateEvent) StateEvent {
	return StateEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
		ResourceType: string(e.IssuableType), ResourceID: resourceID(e.IssueID, e.MergeRequestID),
		SourceCommit: e.SourceCommit, SourceMergeRequestID: e.SourceMergeRequestID, State: string(e.State)}
}

// StateEvents renders state events.
func (p *Presenter) StateEvents(list []*ent.ResourceStateEvent) []StateEvent {
	out := make([]StateEvent, 0, len(list))
	for _, e := range list {
		out = append(out, p.StateEvent(e))
	}
	return out
}

// LabelEvent renders one label event, of an issue, a merge request or an epic (resource_id is
// the issuable's id).
func (p *Presenter) LabelEvent(e *ent.ResourceLabelEvent) LabelEvent {
	ev := LabelEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
		ResourceType: string(e.IssuableType), ResourceID: resourceID(e.IssueID, e.MergeRequestID), Action: string(e.Action)}
	if e.EpicID != nil {
		ev.ResourceID = e.EpicID
	}
	if l := e.Edges.Label; l != nil {
		ev.Label = &EventLabel{ID: l.ID, Name: l.Title, Color: l.Color, Description: l.Description}
	}
	return ev
}

// LabelEvents renders label events.
func (p *Presenter) LabelEvents(list []*ent.ResourceLabelEvent) []LabelEvent {
	out := make([]LabelEvent, 0, len(list))
	for _, e := range list {
		out = append(out, p.LabelEvent(e))
	}
	return out
}

// MilestoneEvent renders one milestone event; the milestone's web_url is left without its
// owner path (the events API shows the milestone's own fields).
func (p *Presenter) MilestoneEvent(e *ent.ResourceMilestoneEvent) MilestoneEvent {
	ev := MilestoneEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
		ResourceType: string(e.IssuableType), ResourceID: resourceID(e.IssueID, e.MergeRequestID), Action: string(e.Action),
		State: string(e.State)}
	if m := e.Edges.Milestone; m != nil {
		ev.Milestone = p.Milestone(m, milestonePath(m))
	}
	return ev
}

// MilestoneEvents renders milestone events.
func (p *Presenter) MilestoneEvents(list []*ent.ResourceMilestoneEvent) []MilestoneEvent {
	out := make([]MilestoneEvent, 0, len(list))
	for _, e := range list {
		out = append(out, p.MilestoneEvent(e))
	}
	return out
}

// milestonePath is the milestone's owner path from its loaded project or group edge.
func milestonePath(m *ent.Milestone) string {
	if g := m.Edges.Group; g != nil {
		return g.FullPath
	}
	if pr := m.Edges.Project; pr != nil && pr.Edges.Namespace != nil {
		return pr.Edges.Namespace.FullPath + "/" + pr.Path
	}
	return ""
}
