package todos

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/notes"
)

// NotesObserver gives the comments on issues, merge requests and epics their to-dos (GitLab's TodoService#new_note): the
// commenter's pending to-dos on the issue are done, and the users the comment mentions who may
// read it get theirs. An internal note's mentions give none: the recorder's readability rule
// is the issue's, and an internal note is for Reporters only.
func (r *Recorder) NotesObserver() notes.Observer { return notesObserver{r} }

type notesObserver struct{ r *Recorder }

func (o notesObserver) NoteWritten(ctx context.Context, actor *authz.Actor, t *notes.Target, n *ent.Note) error {
	if n.Internal {
		return nil
	}
	switch obj := t.Object.(type) {
	case *ent.Issue:
		return o.r.NoteAdded(ctx, actor, o.r.IssueTarget(obj), n.ID, n.Body, nil)
	case *ent.MergeRequest:
		return o.r.NoteAdded(ctx, actor, o.r.MergeRequestTarget(obj), n.ID, n.Body, nil)
	case *ent.Epic:
		return o.r.NoteAdded(ctx, actor, o.r.EpicTarget(obj), n.ID, n.Body, nil)
	}
	return nil
}
