package presenter

import (
	"anvil/ent"
)

// CommitNote is GitLab's CommitNote entity, a commit comment of the older commit comments API:
// path, line and line_type name the diff line of a diff note (null otherwise; line_type null on
// an unchanged line).
type CommitNote struct {
	Note      string     `json:"note"`
	Path      *string    `json:"path"`
	Line      *int       `json:"line"`
	LineType  *string    `json:"line_type"`
	Author    *UserBasic `json:"author"`
	CreatedAt Time       `json:"created_at"`
}

// CommitNote renders a commit's note loaded with its author.
func (p *Presenter) CommitNote(n *ent.Note) *CommitNote {
	out := &CommitNote{Note: n.Body, Author: p.UserBasic(n.Edges.Author), CreatedAt: Time(n.CreatedAt)}
	if n.Type == nil || string(*n.Type) != "DiffNote" || n.Position["position_type"] != "text" {
		return out
	}
	str := func(k string) *string {
		if s, ok := n.Position[k].(string); ok && s != "" {
			return &s
		}
		return nil
	}
	num := func(k string) *int {
		if f, ok := n.Position[k].(float64); ok {
			i := int(f)
			return &i
		}
		if i, ok := n.Position[k].(int); ok {
			return &i
		}
		return nil
	}
	out.Path = str("new_path")
	if out.Path == nil {
		out.Path = str("old_path")
	}
	oldLine, newLine := num("old_line"), num("new_line")
	out.Line = newLine
	if out.Line == nil {
		out.Line = oldLine
	}
	var typ string
	switch {
	case oldLine == nil && newLine != nil:
		typ = "new"
	case newLine == nil && oldLine != nil:
		typ = "old"
	}
	if typ != "" {
		out.LineType = &typ
	}
	return out
}

// CommitNotes renders a list of commit comments.
func (p *Presenter) CommitNotes(list []*ent.Note) []*CommitNote {
	out := make([]*CommitNote, 0, len(list))
	for _, n := range list {
		out = append(out, p.CommitNote(n))
	}
	return out
}
