package presenter

import (
	"anvil/ent"
)

// Note is GitLab's Note entity (API::Entities::Note). resolved, resolved_by and resolved_at
// appear only on resolvable notes; commit_id and position only on diff notes.
type Note struct {
	ID              int            `json:"id"`
	Type            *string        `json:"type"`
	Body            string         `json:"body"`
	Attachment      *string        `json:"attachment"`
	Author          *UserBasic     `json:"author"`
	CreatedAt       Time           `json:"created_at"`
	UpdatedAt       Time           `json:"updated_at"`
	System          bool           `json:"system"`
	NoteableID      *int           `json:"noteable_id"`
	NoteableType    string         `json:"noteable_type"`
	ProjectID       *int           `json:"project_id"`
	CommitID        **string       `json:"commit_id,omitempty"`
	Position        map[string]any `json:"position,omitempty"`
	Resolvable      bool           `json:"resolvable"`
	Resolved        *bool          `json:"resolved,omitempty"`
	ResolvedBy      **UserBasic    `json:"resolved_by,omitempty"`
	ResolvedAt      **Time         `json:"resolved_at,omitempty"`
	Confidential    bool           `json:"confidential"`
	Internal        bool           `json:"internal"`
	Imported        bool           `json:"imported"`
	ImportedFrom    string         `json:"imported_from"`
	NoteableIID     *int           `json:"noteable_iid"`
	CommandsChanges map[string]any `json:"commands_changes"`
}

// Note renders a note loaded with its author and resolver.
func (p *Presenter) Note(n *ent.Note) *Note {
	out := &Note{
		ID: n.ID, Body: n.Body, Author: p.UserBasic(n.Edges.Author),
		CreatedAt: Time(n.CreatedAt), UpdatedAt: Time(n.UpdatedAt), System: n.System,
		NoteableID: n.NoteableID, NoteableType: string(n.NoteableType), ProjectID: n.ProjectID,
		Resolvable: n.Resolvable, Confidential: n.Internal, Internal: n.Internal, ImportedFrom: "none",
		NoteableIID: n.NoteableIid, CommandsChanges: map[string]any{},
	}
	if n.Type != nil {
		t := string(*n.Type)
		out.Type = &t
		if *n.Type == "DiffNote" {
			out.Position = n.Position
			if n.NoteableType == "MergeRequest" {
				id := n.CommitID // shown, null without one
				out.CommitID = &id
			}
		}
	}
	if n.Resolvable {
		resolved := n.ResolvedAt != nil
		by, at := p.UserBasic(n.Edges.ResolvedBy), TimePtr(n.ResolvedAt)
		out.Resolved, out.ResolvedBy, out.ResolvedAt = &resolved, &by, &at
	}
	return out
}

// Notes renders a list of notes.
func (p *Presenter) Notes(list []*ent.Note) []*Note {
	out := make([]*Note, 0, len(list))
	for _, n := range list {
		out = append(out, p.Note(n))
	}
	return out
}
