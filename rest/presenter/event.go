package presenter

import (
	"anvil/ent"
	"anvil/internal/service/events"
)

// Event is GitLab's Event entity. title is always null (the API documents it; GitLab's events
// carry none). note and wiki_page appear for comment and wiki events once those targets exist
// (the notes and wiki domains add them here); push_data for pushes only.
type Event struct {
	ID             int               `json:"id"`
	Title          *string           `json:"title"`
	ProjectID      *int              `json:"project_id"`
	ActionName     string            `json:"action_name"`
	TargetID       *int              `json:"target_id"`
	TargetIID      *int              `json:"target_iid"`
	TargetType     *string           `json:"target_type"`
	AuthorID       int               `json:"author_id"`
	TargetTitle    *string           `json:"target_title"`
	CreatedAt      Time              `json:"created_at"`
	Author         *UserBasic        `json:"author,omitempty"`
	Imported       bool              `json:"imported"`
	ImportedFrom   string            `json:"imported_from"`
	PushData       *PushEventPayload `json:"push_data,omitempty"`
	Note           *Note             `json:"note,omitempty"`
	AuthorUsername *string           `json:"author_username"`
}

// PushEventPayload is GitLab's PushEventPayload entity (an event's push_data).
type PushEventPayload struct {
	CommitCount int     `json:"commit_count"`
	Action      string  `json:"action"`
	RefType     string  `json:"ref_type"`
	CommitFrom  *string `json:"commit_from"`
	CommitTo    *string `json:"commit_to"`
	Ref         *string `json:"ref"`
	CommitTitle *string `json:"commit_title"`
	RefCount    *int    `json:"ref_count"`
}

// Event renders one event; the finder loaded its author and push payload.
func (p *Presenter) Event(e *ent.Event) *Event {
	out := &Event{
		ID: e.ID, ProjectID: e.ProjectID, ActionName: events.ActionName(e),
		TargetID: e.TargetID, TargetIID: events.TargetIID(e), TargetType: e.TargetType,
		AuthorID: e.AuthorID, TargetTitle: e.TargetTitle, CreatedAt: Time(e.CreatedAt),
		Imported: e.ImportedFrom != "none", ImportedFrom: e.ImportedFrom,
	}
	if u := e.Edges.Author; u != nil {
		out.Author = p.UserBasic(u)
		out.AuthorUsername = &u.Username
	}
	if pd := e.Edges.PushData; pd != nil {
		out.PushData = &PushEventPayload{
			CommitCount: pd.CommitCount, Action: string(pd.Action), RefType: string(pd.RefType),
			CommitFrom: pd.CommitFrom, CommitTo: pd.CommitTo, Ref: pd.Ref, CommitTitle: pd.CommitTitle,
			RefCount: pd.RefCount,
		}
	}
	return out
}

// Events renders a list of events.
func (p *Presenter) Events(list []*ent.Event) []*Event {
	out := make([]*Event, 0, len(list))
	for _, e := range list {
		out = append(out, p.Event(e))
	}
	return out
}

// AttachNotes sets the note of each "commented on" event of out from notes (by note id).
func (p *Presenter) AttachNotes(out []*Event, notes map[int]*ent.Note) {
	for _, e := range out {
		if e.TargetType != nil && *e.TargetType == events.TargetNote && e.TargetID != nil {
			if n := notes[*e.TargetID]; n != nil {
				e.Note = p.Note(n)
			}
		}
	}
}
