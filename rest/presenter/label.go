package presenter

import (
	"anvil/internal/service/labels"
)

// Label is GitLab's Entities::Label (LabelBasic with counts and subscription); in a project's
// API it is Entities::ProjectLabel, which adds priority and is_project_label.
type Label struct {
	ID                     int     `json:"id"`
	Name                   string  `json:"name"`
	Description            *string `json:"description"`
	DescriptionHTML        string  `json:"description_html"`
	TextColor              string  `json:"text_color"`
	Color                  string  `json:"color"`
	OpenIssuesCount        *int    `json:"open_issues_count,omitempty"`
	ClosedIssuesCount      *int    `json:"closed_issues_count,omitempty"`
	OpenMergeRequestsCount *int    `json:"open_merge_requests_count,omitempty"`
	Subscribed             bool    `json:"subscribed"`
}

// ProjectLabel is a label as a project's labels API shows it.
type ProjectLabel struct {
	Label
	Priority       *int `json:"priority"`
	IsProjectLabel bool `json:"is_project_label"`
}

// Label renders a label view; project selects the project form.
func (p *Presenter) Label(v labels.View, project bool) any {
	l := v.Label
	out := Label{
		ID: l.ID, Name: l.Title, Description: l.Description, DescriptionHTML: descriptionHTML(deref(l.Description)),
		TextColor: labels.TextColor(l.Color), Color: l.Color, Subscribed: v.Subscribed,
	}
	if c := v.Counts; c != nil {
		out.OpenIssuesCount, out.ClosedIssuesCount, out.OpenMergeRequestsCount = &c.OpenIssues, &c.ClosedIssues, &c.OpenMergeRequests
	}
	if !project {
		return out
	}
	return ProjectLabel{Label: out, Priority: l.Priority, IsProjectLabel: l.ProjectID != nil}
}

// Labels renders label views.
func (p *Presenter) Labels(vs []labels.View, project bool) []any {
	out := make([]any, 0, len(vs))
	for _, v := range vs {
		out = append(out, p.Label(v, project))
	}
	return out
}
