package presenter

import (
	"strconv"

	"anvil/ent"
	"anvil/internal/service/todos"
)

// Todo is GitLab's to-do item entity (Entities::Todo): project for project targets and group
// for group targets, each absent otherwise; target in its own entity's shape (an issue as
// Entities::Issue, an epic as EE::API::Entities::Epic); body the comment that mentioned the user, else the target's title.
type Todo struct {
	ID         int              `json:"id"`
	Project    *ProjectIdentity `json:"project,omitempty"`
	Group      *NamespaceBasic  `json:"group,omitempty"`
	Author     *UserBasic       `json:"author"`
	ActionName string           `json:"action_name"`
	TargetType string           `json:"target_type"`
	Target     any              `json:"target"`
	TargetURL  *string          `json:"target_url"`
	Body       *string          `json:"body"`
	State      string           `json:"state"`
	CreatedAt  Time             `json:"created_at"`
	UpdatedAt  Time             `json:"updated_at"`
}

// Todo renders a to-do loaded by the to-do service, with its view.
func (p *Presenter) Todo(t *ent.Todo, v *todos.View) *Todo {
	out := &Todo{
		ID: t.ID, Author: p.UserBasic(t.Edges.Author), ActionName: string(t.Action), TargetType: t.TargetType,
		State: string(t.State), CreatedAt: Time(t.CreatedAt), UpdatedAt: Time(t.UpdatedAt), Body: t.Body,
	}
	if pr := t.Edges.Project; pr != nil {
		out.Project = &ProjectIdentity{
			ID: pr.ID, Description: strPtrOrNil(pr.Description), Name: pr.Name,
			NameWithNamespace: v.FullNames[pr.NamespaceID] + " / " + pr.Name,
			Path:              pr.Path, PathWithNamespace: ProjectFullPath(pr), CreatedAt: Time(pr.CreatedAt),
		}
	}
	if g := t.Edges.Group; g != nil {
		ns := p.Namespace(g)
		out.Group = &ns
	}
	var anchor string
	if t.NoteID != nil {
		anchor = "#note_" + strconv.Itoa(*t.NoteID)
	}
	switch t.TargetType {
	case todos.TargetIssue:
		if is := v.Issues[t.TargetID]; is != nil {
			issue := p.Issue(is, false)
			out.Target = issue
			url := issue.WebURL + anchor
			out.TargetURL = &url
			if out.Body == nil {
				out.Body = &is.Title
			}
		}
	case todos.TargetMergeRequest:
		if mr := v.MergeRequests[t.TargetID]; mr != nil {
			// GitLab's Entities::MergeRequest; the caller-specific facts of the single read
			// (subscribed, ...) are not computed per to-do.
			m := p.MergeRequest(mr, MergeRequestOptions{})
			out.Target = m
			url := m.WebURL + anchor
			out.TargetURL = &url
			if out.Body == nil {
				out.Body = &mr.Title
			}
		}
	case todos.TargetEpic:
		if ev, ok := v.Epics[t.TargetID]; ok {
			// GitLab's EE::API::Entities::Epic, as GET /groups/:id/epics/:epic_iid shows it.
			e := p.Epic(ev, EpicOptions{})
			out.Target = e
			url := e.WebURL + anchor
			out.TargetURL = &url
			if out.Body == nil {
				out.Body = &ev.Epic.Title
			}
		}
	}
	return out
}

// Todos renders a page of to-dos.
func (p *Presenter) Todos(list []*ent.Todo, v *todos.View) []*Todo {
	out := make([]*Todo, 0, len(list))
	for _, t := range list {
		out = append(out, p.Todo(t, v))
	}
	return out
}

// UserCounts is GET /user_counts (merge_requests is the deprecated name of
// assigned_merge_requests).
type UserCounts struct {
	MergeRequests                int `json:"merge_requests"`
	AssignedIssues               int `json:"assigned_issues"`
	AssignedMergeRequests        int `json:"assigned_merge_requests"`
	ReviewRequestedMergeRequests int `json:"review_requested_merge_requests"`
	Todos                        int `json:"todos"`
}

// UserCounts renders the caller's counts.
func (p *Presenter) UserCounts(c todos.Counts) UserCounts {
	return UserCounts{AssignedIssues: c.AssignedIssues, Todos: c.Todos}
}
