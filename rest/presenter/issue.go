package presenter

import (
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/internal/service/issues"
	"anvil/internal/service/labels"
)

// Issue is GitLab's issue entity (Entities::Issue).
type Issue struct {
	ID                   int             `json:"id"`
	IID                  int             `json:"iid"`
	ProjectID            int             `json:"project_id"`
	Title                string          `json:"title"`
	Description          *string         `json:"description"`
	State                string          `json:"state"`
	CreatedAt            Time            `json:"created_at"`
	UpdatedAt            Time            `json:"updated_at"`
	ClosedAt             *Time           `json:"closed_at"`
	ClosedBy             *UserBasic      `json:"closed_by"`
	Labels               any             `json:"labels"`
	Milestone            *Milestone      `json:"milestone"`
	Assignees            []*UserBasic    `json:"assignees"`
	Author               *UserBasic      `json:"author"`
	Type                 string          `json:"type"`
	Assignee             *UserBasic      `json:"assignee"`
	UserNotesCount       int             `json:"user_notes_count"`
	MergeRequestsCount   int             `json:"merge_requests_count"`
	Upvotes              int             `json:"upvotes"`
	Downvotes            int             `json:"downvotes"`
	DueDate              *Date           `json:"due_date"`
	Weight               *int            `json:"weight"`
	Confidential         bool            `json:"confidential"`
	DiscussionLocked     *bool           `json:"discussion_locked"`
	IssueType            string          `json:"issue_type"`
	WebURL               string          `json:"web_url"`
	TimeStats            TimeStats       `json:"time_stats"`
	TaskCompletionStatus TaskCompletion  `json:"task_completion_status"`
	HasTasks             bool            `json:"has_tasks"`
	Links                IssueLinks      `json:"_links"`
	References           IssueReferences `json:"references"`
	Severity             string          `json:"severity"`
	Subscribed           *bool           `json:"subscribed,omitempty"`
	MovedToID            *int            `json:"moved_to_id"`
	ServiceDeskReplyTo   *string         `json:"service_desk_reply_to"`
}

// TimeStats is an issuable's time tracking (GitLab's Entities::IssuableTimeStats): seconds,
// and the human forms, null at zero.
type TimeStats struct {
	TimeEstimate        int     `json:"time_estimate"`
	TotalTimeSpent      int     `json:"total_time_spent"`
	HumanTimeEstimate   *string `json:"human_time_estimate"`
	HumanTotalTimeSpent *string `json:"human_total_time_spent"`
}

// TaskCompletion counts the description's task list items.
type TaskCompletion struct {
	Count          int `json:"count"`
	CompletedCount int `json:"completed_count"`
}

// IssueLinks are the issue's API links.
type IssueLinks struct {
	Self                string  `json:"self"`
	Notes               string  `json:"notes"`
	AwardEmoji          string  `json:"award_emoji"`
	Project             string  `json:"project"`
	ClosedAsDuplicateOf *string `json:"closed_as_duplicate_of"`
}

// IssueReferences are the issue's references from its project, its namespace and anywhere.
type IssueReferences struct {
	Short    string `json:"short"`
	Relative string `json:"relative"`
	Full     string `json:"full"`
}

// LabelDetail is a label as with_labels_details=true shows it on an issue.
type LabelDetail struct {
	ID              int     `json:"id"`
	Name            string  `json:"name"`
	Color           string  `json:"color"`
	Description     *string `json:"description"`
	DescriptionHTML string  `json:"description_html"`
	TextColor       string  `json:"text_color"`
}

// Issue renders an issue loaded with issues.Load; labelDetails renders labels as objects.
func (p *Presenter) Issue(is *ent.Issue, labelDetails bool) *Issue {
	proj := is.Edges.Project
	projPath := proj.Edges.Namespace.FullPath + "/" + proj.Path
	api := p.BaseURL + "/api/v4/projects/" + strconv.Itoa(proj.ID)
	self := api + "/issues/" + strconv.Itoa(is.Iid)
	ref := "#" + strconv.Itoa(is.Iid)
	out := &Issue{
		ID: is.ID, IID: is.Iid, ProjectID: is.ProjectID, Title: is.Title, Description: is.Description,
		State: string(is.State), CreatedAt: Time(is.CreatedAt), UpdatedAt: Time(is.UpdatedAt),
		ClosedAt: TimePtr(is.ClosedAt), ClosedBy: p.UserBasic(is.Edges.ClosedBy),
		Author: p.UserBasic(is.Edges.Author), Type: strings.ToUpper(string(is.IssueType)),
		UserNotesCount: is.UserNotesCount,
		DueDate:        DatePtr(is.DueDate), Confidential: is.Confidential, DiscussionLocked: is.DiscussionLocked,
		IssueType: string(is.IssueType), WebURL: p.BaseURL + "/" + projPath + "/-/issues/" + strconv.Itoa(is.Iid),
		Links:      IssueLinks{Self: self, Notes: self + "/notes", AwardEmoji: self + "/award_emoji", Project: api},
		References: IssueReferences{Short: ref, Relative: ref, Full: projPath + ref},
		Severity:   "UNKNOWN", Assignees: []*UserBasic{}, Weight: is.Weight,
		TimeStats: p.TimeStats(is.TimeEstimate, is.TotalTimeSpent),
	}
	out.Upvotes, out.Downvotes = issues.Votes(is)
	if m := is.Edges.Milestone; m != nil {
		out.Milestone = p.Milestone(m, milestoneOwnerPath(m, proj))
	}
	if labelDetails {
		ls := make([]LabelDetail, 0, len(is.Edges.LabelLinks))
		for _, l := range is.Edges.LabelLinks {
			ls = append(ls, p.LabelDetail(l.Edges.Label))
		}
		out.Labels = ls
	} else {
		ls := make([]string, 0, len(is.Edges.LabelLinks))
		for _, l := range is.Edges.LabelLinks {
			ls = append(ls, l.Edges.Label.Title)
		}
		out.Labels = ls
	}
	for _, a := range is.Edges.AssigneeLinks {
		out.Assignees = append(out.Assignees, p.UserBasic(a.Edges.User))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = out.Assignees[0]
	}
	return out
}

// milestoneOwnerPath is the full path of the milestone's project or group as seen from proj:
// a group milestone's group is one of proj's ancestors, whose path prefixes proj's.
func milestoneOwnerPath(m *ent.Milestone, proj *ent.Project) string {
	if m.ProjectID != nil {
		return proj.Edges.Namespace.FullPath + "/" + proj.Path
	}
	if g := m.Edges.Group; g != nil {
		return g.FullPath
	}
	return proj.Edges.Namespace.FullPath
}

// Issues renders a list of issues.
func (p *Presenter) Issues(list []*ent.Issue, labelDetails bool) []*Issue {
	out := make([]*Issue, 0, len(list))
	for _, is := range list {
		out = append(out, p.Issue(is, labelDetails))
	}
	return out
}

// LabelDetail renders a label on an issue.
func (p *Presenter) LabelDetail(l *ent.Label) LabelDetail {
	return LabelDetail{
		ID: l.ID, Name: l.Title, Color: l.Color, Description: l.Description,
		DescriptionHTML: descriptionHTML(deref(l.Description)), TextColor: labels.TextColor(l.Color),
	}
}

// deref is the string s points to, or "".
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
