package presenter

import (
	"strconv"
	"time"

	"anvil/ent"
)

// Milestone is a project or group milestone: project_id for one, group_id for the other.
type Milestone struct {
	ID          int     `json:"id"`
	IID         int     `json:"iid"`
	ProjectID   *int    `json:"project_id,omitempty"`
	GroupID     *int    `json:"group_id,omitempty"`
	Title       string  `json:"title"`
	Description *string `json:"description"`
	State       string  `json:"state"`
	CreatedAt   Time    `json:"created_at"`
	UpdatedAt   Time    `json:"updated_at"`
	DueDate     *Date   `json:"due_date"`
	StartDate   *Date   `json:"start_date"`
	Expired     bool    `json:"expired"`
	WebURL      string  `json:"web_url"`
}

// Milestone renders a milestone; ownerPath is its project's or group's full path.
func (p *Presenter) Milestone(m *ent.Milestone, ownerPath string) *Milestone {
	if m == nil {
		return nil
	}
	web := p.BaseURL + "/" + ownerPath + "/-/milestones/" + strconv.Itoa(m.Iid)
	if m.GroupID != nil {
		web = p.BaseURL + "/groups/" + ownerPath + "/-/milestones/" + strconv.Itoa(m.Iid)
	}
	return &Milestone{
		ID: m.ID, IID: m.Iid, ProjectID: m.ProjectID, GroupID: m.GroupID, Title: m.Title,
		Description: m.Description, State: string(m.State), CreatedAt: Time(m.CreatedAt),
		UpdatedAt: Time(m.UpdatedAt), DueDate: DatePtr(m.DueDate), StartDate: DatePtr(m.StartDate),
		Expired: MilestoneExpired(m, time.Now()), WebURL: web,
	}
}

// MilestoneExpired is GitLab's expired?: the due date has passed (a milestone is due through
// the end of its due date).
func MilestoneExpired(m *ent.Milestone, now time.Time) bool {
	if m.DueDate == nil {
		return false
	}
	today := now.UTC().Truncate(24 * time.Hour)
	return m.DueDate.UTC().Before(today)
}
