package model

import (
	"anvil/ent"
	"anvil/internal/service/notes"

	"entgo.io/contrib/entgql"
)

// NoteConnection is a page of a noteable's or a discussion's notes (paged in memory).
type NoteConnection struct {
	Edges      []*NoteEdge
	Nodes      []*ent.Note
	PageInfo   entgql.PageInfo[int]
	TotalCount int
}

// NoteEdge is a note and its cursor (the note's id).
type NoteEdge struct {
	Node   *ent.Note
	Cursor entgql.Cursor[int]
}

// DiscussionConnection is a page of a noteable's discussions.
type DiscussionConnection struct {
	Edges      []*DiscussionEdge
	Nodes      []*notes.Discussion
	PageInfo   entgql.PageInfo[int]
	TotalCount int
}

// DiscussionEdge is a discussion and its cursor (its first note's id).
type DiscussionEdge struct {
	Node   *notes.Discussion
	Cursor entgql.Cursor[int]
}
