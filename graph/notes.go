package graph

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/apperr"
	"anvil/internal/service/notes"

	"entgo.io/contrib/entgql"
)

// gidDiscussion is the model of a discussion's global id; its id part is 40 hex digits.
const gidDiscussion = "Discussion"

// noteGID is a note's global id: Note, or DiscussionNote and DiffNote for notes in threads, as
// GitLab's note classes.
func noteGID(n *ent.Note) string {
	if n.Type != nil {
		return "gid://gitlab/" + string(*n.Type) + "/" + strconv.Itoa(n.ID)
	}
	return formatGID("Note", n.ID)
}

// discussionGID is a discussion's global id.
func discussionGID(d *notes.Discussion) string { return "gid://gitlab/" + gidDiscussion + "/" + d.ID }

// parseDiscussionGID reads a discussion's global id.
func parseDiscussionGID(s string) (string, error) {
	id, ok := strings.CutPrefix(s, "gid://gitlab/"+gidDiscussion+"/")
	if !ok || id == "" {
		return "", badInput("%s is not a valid ID for Discussion.", s)
	}
	return id, nil
}

// issueNoteRef names an issue for the notes domain.
func issueNoteRef(is *ent.Issue) notes.Ref {
	return notes.Ref{Type: notes.TypeIssue, Parent: strconv.Itoa(is.ProjectID), ID: strconv.Itoa(is.Iid)}
}

// issueNotes are the issue's notes the caller may read, oldest first, kept to filter.
func (r *Resolver) issueNotes(ctx context.Context, is *ent.Issue, filter *model.NotesFilterType) ([]*ent.Note, error) {
	all, _, err := r.svc.Notes.All(ctx, actor(ctx), issueNoteRef(is))
	if err != nil || filter == nil || *filter == model.NotesFilterTypeAllNotes {
		return all, err
	}
	system := *filter == model.NotesFilterTypeOnlyActivity
	out := make([]*ent.Note, 0, len(all))
	for _, n := range all {
		if n.System == system {
			out = append(out, n)
		}
	}
	return out, nil
}

// noteConnection pages notes read whole.
func noteConnection(all []*ent.Note, after, before *entgql.Cursor[int], first, last *int) *model.NoteConnection {
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(n *ent.Note) int { return n.ID }, after, before, first, last)
	c := &model.NoteConnection{Nodes: nodes, PageInfo: info, TotalCount: len(all), Edges: make([]*model.NoteEdge, len(nodes))}
	for i, n := range nodes {
		c.Edges[i] = &model.NoteEdge{Node: n, Cursor: cursors[i]}
	}
	return c
}

// discussionConnection pages discussions; a discussion's cursor is its first note's id.
func discussionConnection(all []*notes.Discussion, after, before *entgql.Cursor[int], first, last *int) *model.DiscussionConnection {
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(d *notes.Discussion) int { return d.Notes[0].ID }, after, before, first, last)
	c := &model.DiscussionConnection{Nodes: nodes, PageInfo: info, TotalCount: len(all), Edges: make([]*model.DiscussionEdge, len(nodes))}
	for i, d := range nodes {
		c.Edges[i] = &model.DiscussionEdge{Node: d, Cursor: cursors[i]}
	}
	return c
}

// discussionResolved: a resolvable discussion whose resolvable notes are all resolved.
func discussionResolved(d *notes.Discussion) bool {
	resolvable := false
	for _, n := range d.Notes {
		if n.Resolvable {
			resolvable = true
			if n.ResolvedAt == nil {
				return false
			}
		}
	}
	return resolvable
}

// createNote writes a note on the noteable a global id names (issues), or a reply in one of
// its discussions.
func (r *Resolver) createNote(ctx context.Context, in model.CreateNoteInput) (*ent.Note, []string, error) {
	id, err := parseGIDOf(in.NoteableID, gidIssue)
	if err != nil {
		return nil, nil, err
	}
	is, err := r.svc.Issues.FindVisible(ctx, actor(ctx), id)
	if err != nil {
		return nil, nil, err
	}
	body := notes.CreateInput{Body: in.Body, Internal: flag(in.Internal)}
	var n *ent.Note
	if in.DiscussionID != nil {
		did, err := parseDiscussionGID(*in.DiscussionID)
		if err != nil {
			return nil, nil, err
		}
		n, _, err = r.svc.Notes.Reply(ctx, actor(ctx), issueNoteRef(is), did, body)
		return noteResult(n, err)
	}
	n, _, err = r.svc.Notes.Create(ctx, actor(ctx), issueNoteRef(is), body, false)
	return noteResult(n, err)
}

// noteResult is the payload side of a note mutation; a refused body is the payload's error.
func noteResult(n *ent.Note, err error) (*ent.Note, []string, error) {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.KindBadRequest && strings.HasPrefix(e.Text(), "Note {") {
		return nil, []string{noteBodyError(e.Text())}, nil
	}
	msgs, err := payloadErrors(err)
	if err != nil || len(msgs) > 0 {
		return nil, msgs, err
	}
	return n, msgs, nil
}

// noteBodyError turns REST's `Note {:note=>["can't be blank"]}` into GitLab GraphQL's full
// message, "Note can't be blank".
func noteBodyError(rest string) string {
	msg := rest
	if i := strings.Index(rest, `["`); i >= 0 {
		msg = strings.TrimSuffix(strings.TrimSuffix(rest[i+2:], `"]}`), `"]`)
	}
	return "Note " + msg
}
