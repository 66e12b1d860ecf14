package presenter

import (
	"sort"
	"strconv"

	"anvil/ent"
	"anvil/internal/service/epics"
	"anvil/internal/service/labels"
)

// Epic is GitLab's epic entity (EE::API::Entities::Epic), the extra date fields included.
type Epic struct {
	ID                           int             `json:"id"`
	WorkItemID                   *int            `json:"work_item_id"`
	IID                          int             `json:"iid"`
	Color                        string          `json:"color"`
	TextColor                    string          `json:"text_color"`
	GroupID                      int             `json:"group_id"`
	ParentID                     *int            `json:"parent_id"`
	ParentIID                    *int            `json:"parent_iid"`
	Imported                     bool            `json:"imported"`
	ImportedFrom                 string          `json:"imported_from"`
	Title                        string          `json:"title"`
	Description                  *string         `json:"description"`
	Confidential                 bool            `json:"confidential"`
	Author                       *UserBasic      `json:"author"`
	StartDate                    *Date           `json:"start_date"`
	StartDateIsFixed             bool            `json:"start_date_is_fixed"`
	StartDateFixed               *Date           `json:"start_date_fixed"`
	StartDateFromInheritedSource *Date           `json:"start_date_from_inherited_source"`
	StartDateFromMilestones      *Date           `json:"start_date_from_milestones"`
	EndDate                      *Date           `json:"end_date"`
	DueDate                      *Date           `json:"due_date"`
	DueDateIsFixed               bool            `json:"due_date_is_fixed"`
	DueDateFixed                 *Date           `json:"due_date_fixed"`
	DueDateFromInheritedSource   *Date           `json:"due_date_from_inherited_source"`
	DueDateFromMilestones        *Date           `json:"due_date_from_milestones"`
	State                        string          `json:"state"`
	WebEditURL                   string          `json:"web_edit_url"`
	WebURL                       string          `json:"web_url"`
	References                   IssueReferences `json:"references"`
	CreatedAt                    Time            `json:"created_at"`
	UpdatedAt                    Time            `json:"updated_at"`
	ClosedAt                     *Time           `json:"closed_at"`
	Labels                       any             `json:"labels"`
	Upvotes                      int             `json:"upvotes"`
	Downvotes                    int             `json:"downvotes"`
	Subscribed                   *bool           `json:"subscribed,omitempty"`
	Links                        EpicLinks       `json:"_links"`
}

// EpicLinks are an epic's API links; parent is null for a top-level epic.
type EpicLinks struct {
	Self       string  `json:"self"`
	EpicIssues string  `json:"epic_issues"`
	Group      string  `json:"group"`
	Parent     *string `json:"parent"`
}

// EpicOptions are the per-request parts of an epic's rendering.
type EpicOptions struct {
	// LabelDetails renders labels as objects (with_labels_details=true).
	LabelDetails bool
	// Subscribed is set on the single read only (GitLab's include_subscribed).
	Subscribed *bool
}

// Epic renders an epic loaded with epics.Load, its references relative to the request's group.
func (p *Presenter) Epic(v epics.View, o EpicOptions) *Epic {
	e := v.Epic
	g := e.Edges.Group
	api := p.BaseURL + "/api/v4/groups/"
	self := api + strconv.Itoa(e.GroupID) + "/epics/" + strconv.Itoa(e.Iid)
	ref := "&" + strconv.Itoa(e.Iid)
	relative := ref
	if v.Group != nil && v.Group.ID != e.GroupID {
		relative = g.FullPath + ref
	}
	out := &Epic{
		ID: e.ID, IID: e.Iid, Color: e.Color, TextColor: labels.TextColor(e.Color), GroupID: e.GroupID,
		ParentID: e.ParentID, ImportedFrom: "none", Title: e.Title, Description: e.Description,
		Confidential: e.Confidential, Author: p.UserBasic(e.Edges.Author),
		StartDate: DatePtr(v.Dates.Start), StartDateIsFixed: e.StartDateIsFixed, StartDateFixed: DatePtr(e.StartDateFixed),
		StartDateFromInheritedSource: DatePtr(v.Dates.StartFromMilestones), StartDateFromMilestones: DatePtr(v.Dates.StartFromMilestones),
		EndDate: DatePtr(v.Dates.Due), DueDate: DatePtr(v.Dates.Due), DueDateIsFixed: e.DueDateIsFixed,
		DueDateFixed: DatePtr(e.DueDateFixed), DueDateFromInheritedSource: DatePtr(v.Dates.DueFromMilestones),
		DueDateFromMilestones: DatePtr(v.Dates.DueFromMilestones), State: string(e.State),
		WebEditURL: "/groups/" + g.FullPath + "/-/epics/" + strconv.Itoa(e.Iid),
		WebURL:     p.BaseURL + "/groups/" + g.FullPath + "/-/epics/" + strconv.Itoa(e.Iid),
		References: IssueReferences{Short: ref, Relative: relative, Full: g.FullPath + ref},
		CreatedAt:  Time(e.CreatedAt), UpdatedAt: Time(e.UpdatedAt), ClosedAt: TimePtr(e.ClosedAt),
		Subscribed: o.Subscribed,
		Links:      EpicLinks{Self: self, EpicIssues: self + "/issues", Group: api + strconv.Itoa(e.GroupID)},
	}
	out.Upvotes, out.Downvotes = epics.Votes(e)
	if parent := e.Edges.Parent; parent != nil {
		out.ParentIID = &parent.Iid
		link := api + strconv.Itoa(parent.GroupID) + "/epics/" + strconv.Itoa(parent.Iid)
		out.Links.Parent = &link
	}
	ls := make([]*ent.Label, 0, len(e.Edges.LabelLinks))
	for _, l := range e.Edges.LabelLinks {
		ls = append(ls, l.Edges.Label)
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].Title < ls[j].Title })
	if o.LabelDetails {
		details := make([]LabelDetail, 0, len(ls))
		for _, l := range ls {
			details = append(details, p.LabelDetail(l))
		}
		out.Labels = details
	} else {
		titles := make([]string, 0, len(ls))
		for _, l := range ls {
			titles = append(titles, l.Title)
		}
		out.Labels = titles
	}
	return out
}

// Epics renders a page of epics.
func (p *Presenter) Epics(r epics.Result, o EpicOptions) []*Epic {
	out := make([]*Epic, 0, len(r.Items))
	for _, e := range r.Items {
		out = append(out, p.Epic(epics.View{Epic: e, Group: r.Group, Dates: r.Dates[e.ID]}, o))
	}
	return out
}

// LinkedEpic is GitLab's short form of a child epic created under a parent
// (EE::API::Entities::LinkedEpic).
type LinkedEpic struct {
	ID          int    `json:"id"`
	IID         int    `json:"iid"`
	Title       string `json:"title"`
	GroupID     int    `json:"group_id"`
	ParentID    *int   `json:"parent_id"`
	HasChildren bool   `json:"has_children"`
	HasIssues   bool   `json:"has_issues"`
	Reference   string `json:"reference"`
	URL         string `json:"url"`
	RelationURL string `json:"relation_url"`
}

// LinkedEpic renders a new child epic (loaded with epics.Load, its parent's group included).
func (p *Presenter) LinkedEpic(e *ent.Epic) *LinkedEpic {
	g := e.Edges.Group
	ref := "&" + strconv.Itoa(e.Iid)
	out := &LinkedEpic{
		ID: e.ID, IID: e.Iid, Title: e.Title, GroupID: e.GroupID, ParentID: e.ParentID, Reference: ref,
		URL: p.BaseURL + "/groups/" + g.FullPath + "/-/epics/" + strconv.Itoa(e.Iid),
	}
	if parent := e.Edges.Parent; parent != nil {
		pg := parent.Edges.Group
		if pg.ID != g.ID {
			out.Reference = g.FullPath + ref
		}
		out.RelationURL = p.BaseURL + "/groups/" + pg.FullPath + "/-/epics/" + strconv.Itoa(parent.Iid) + "/links/" + strconv.Itoa(e.ID)
	}
	return out
}

// EpicIssue is an issue of an epic (GitLab's Entities::EpicIssue): the issue with its link's
// id. Links keep no manual order here: relative_position is null.
type EpicIssue struct {
	*Issue
	EpicIssueID      int  `json:"epic_issue_id"`
	RelativePosition *int `json:"relative_position"`
}

// EpicIssues renders an epic's issues; linkIDs maps each issue to its link.
func (p *Presenter) EpicIssues(list []*ent.Issue, linkIDs map[int]int) []EpicIssue {
	out := make([]EpicIssue, 0, len(list))
	for _, is := range list {
		out = append(out, EpicIssue{Issue: p.Issue(is, false), EpicIssueID: linkIDs[is.ID]})
	}
	return out
}

// EpicIssueLink is an epic-issue link (GitLab's Entities::EpicIssueLink).
type EpicIssueLink struct {
	ID               int    `json:"id"`
	RelativePosition *int   `json:"relative_position"`
	Epic             *Epic  `json:"epic"`
	Issue            *Issue `json:"issue"`
}

// EpicIssueLink renders a link with its epic and issue.
func (p *Presenter) EpicIssueLink(l epics.IssueLink) *EpicIssueLink {
	return &EpicIssueLink{ID: l.Link.ID, Epic: p.Epic(l.Epic, EpicOptions{}), Issue: p.Issue(l.Issue, false)}
}
