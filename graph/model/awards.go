package model

import (
	"anvil/ent"

	"entgo.io/contrib/entgql"
)

// AwardEmojiConnection is a page of an awardable's awards (paged in memory: an object has few).
type AwardEmojiConnection struct {
	Edges      []*AwardEmojiEdge
	Nodes      []*ent.AwardEmoji
	PageInfo   entgql.PageInfo[int]
	TotalCount int
}

// AwardEmojiEdge is an award and its cursor (the award's id).
type AwardEmojiEdge struct {
	Node   *ent.AwardEmoji
	Cursor entgql.Cursor[int]
}

// SnippetBlob is one file of a snippet at its default branch.
type SnippetBlob struct {
	Name, Path, RawPath string
	RawPlainData        *string
	Size                int
	Binary              bool
}

// SnippetBlobConnection is a page of a snippet's files (a snippet has at most ten).
type SnippetBlobConnection struct {
	Edges      []*SnippetBlobEdge
	Nodes      []*SnippetBlob
	PageInfo   entgql.PageInfo[int]
	TotalCount int
}

// SnippetBlobEdge is a file and its cursor (its position among the snippet's files).
type SnippetBlobEdge struct {
	Node   *SnippetBlob
	Cursor entgql.Cursor[int]
}
