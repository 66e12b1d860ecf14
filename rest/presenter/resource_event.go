package presenter

import (
	"anvil/ent"
	"anvil/ent/resourcelabelevent"
)

// StateEvent is a resource state event.
type StateEvent struct {
	ID           int        `json:"id"`
	User         *UserBasic `json:"user"`
	CreatedAt    Time       `json:"created_at"`
	ResourceType string     `json:"resource_type"`
	ResourceID   *int       `json:"resource_id"`
	State        string     `json:"state"`
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
}

// StateEvents renders state events.
func (p *Presenter) StateEvents(list []*ent.ResourceStateEvent) []StateEvent {
	out := make([]StateEvent, 0, len(list))
	for _, e := range list {
		out = append(out, StateEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
			ResourceType: string(e.IssuableType), ResourceID: e.IssueID, State: string(e.State)})
	}
	return out
}

// LabelEvents renders label events.
func (p *Presenter) LabelEvents(list []*ent.ResourceLabelEvent) []LabelEvent {
	out := make([]LabelEvent, 0, len(list))
	for _, e := range list {
		out = append(out, p.LabelEvent(e))
	}
	return out
}

// LabelEvent renders one label event, of an issue or an epic (resource_id is the issuable's id).
func (p *Presenter) LabelEvent(e *ent.ResourceLabelEvent) LabelEvent {
	ev := LabelEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
		ResourceType: string(e.IssuableType), ResourceID: e.IssueID, Action: string(e.Action)}
	if e.IssuableType == resourcelabelevent.IssuableTypeEpic {
		ev.ResourceID = e.EpicID
	}
	if l := e.Edges.Label; l != nil {
		ev.Label = &EventLabel{ID: l.ID, Name: l.Title, Color: l.Color, Description: l.Description}
	}
	return ev
}

// MilestoneEvents renders milestone events; the milestone's web_url is left without its owner
// path (the events API shows the milestone's own fields).
func (p *Presenter) MilestoneEvents(list []*ent.ResourceMilestoneEvent) []MilestoneEvent {
	out := make([]MilestoneEvent, 0, len(list))
	for _, e := range list {
		ev := MilestoneEvent{ID: e.ID, User: p.UserBasic(e.Edges.User), CreatedAt: Time(e.CreatedAt),
			ResourceType: string(e.IssuableType), ResourceID: e.IssueID, Action: string(e.Action)}
		if m := e.Edges.Milestone; m != nil {
			ev.Milestone = p.Milestone(m, milestonePath(m))
		}
		out = append(out, ev)
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
