package notes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/events"
)

// maxBody is the longest note GitLab accepts, in characters.
const maxBody = 1_000_000

// CreateInput is a new note: POST .../notes, POST .../discussions and a reply.
type CreateInput struct {
	Body string
	// Internal marks the note internal; dropped without read_internal_note, as GitLab does.
	Internal bool
	// CreatedAt back-dates the note (and its updated_at); dropped without set_note_created_at.
	CreatedAt *time.Time
	// Position starts a thread on a line of the noteable's diff (a DiffNote: merge requests and
	// commits); CommitID is the merge request commit it is on (merge requests' commit_id).
	Position *Position
	CommitID *string
}

// newDiscussionID is a discussion id: 40 hex digits, as GitLab's.
func newDiscussionID() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// checkBody validates a note's body as GitLab's Note model does.
func checkBody(body string) error {
	if p := bodyProblem(body); p != "" {
		return apperr.BadRequest("Note " + p)
	}
	return nil
}

// bodyProblem is GitLab's rendering of what is wrong with a note's body, "" when nothing is.
func bodyProblem(body string) string {
	if strings.TrimSpace(body) == "" {
		return `{:note=>["can't be blank"]}`
	}
	if len([]rune(body)) > maxBody {
		return `{:note=>["is too long (maximum is 1000000 characters)"]}`
	}
	return ""
}

// mayComment refuses a comment the actor may not write (a locked discussion included).
func mayComment(actor *authz.Actor, t *Target) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	if !t.Access.mayComment() {
		return apperr.Forbidden("")
	}
	return nil
}

// Create writes a note on the noteable: a comment of its own (individual), or with thread
// set the first note of a thread (POST .../discussions). The note, the noteable's count and
// the "commented on" event are written in one transaction.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, ref Ref, in CreateInput, thread bool) (*ent.Note, *Target, error) {
	n, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if err := mayComment(actor, t); err != nil {
		return nil, nil, err
	}
	if err := checkBody(in.Body); err != nil {
		return nil, nil, err
	}
	var typ *note.Type
	if thread {
		dn := note.TypeDiscussionNote
		typ = &dn
	}
	if !thread {
		in.Position, in.CommitID = nil, nil
	}
	if in.Position != nil {
		if err := s.checkPosition(ctx, t, in.Position); err != nil {
			return nil, nil, err
		}
		dn := note.TypeDiffNote
		typ = &dn
	} else {
		in.CommitID = nil
	}
	created, err := s.write(ctx, actor, n, t, in, newDiscussionID(), typ, in.Internal && t.Access.ReadInternal)
	return created, t, err
}

// Reply adds a note to a discussion of the noteable; a reply to a note that is not part of a
// thread turns it into one (both notes become DiscussionNotes). The reply is internal when the
// discussion is.
func (s *Service) Reply(ctx context.Context, actor *authz.Actor, ref Ref, discussionID string, in CreateInput) (*ent.Note, *Target, error) {
	n, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.discussion(ctx, actor, t, discussionID)
	if err != nil {
		return nil, nil, err
	}
	if err := mayComment(actor, t); err != nil {
		return nil, nil, err
	}
	first := d.Notes[0]
	if first.System {
		return nil, nil, apperr.BadRequest("Discussion can not be replied to.")
	}
	if err := checkBody(in.Body); err != nil {
		return nil, nil, err
	}
	// A reply to a diff thread is a diff note on the same line (GitLab's reply_attributes).
	typ := note.TypeDiscussionNote
	in.Position, in.CommitID = nil, nil
	if first.Type != nil && *first.Type == note.TypeDiffNote {
		typ = note.TypeDiffNote
	}
	var created *ent.Note
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if d.Individual {
			if err := c.Note.Update().Where(of(t), note.DiscussionID(d.ID), note.TypeIsNil()).
				SetType(note.TypeDiscussionNote).SetResolvable(t.Access.Resolvable).Exec(ctx); err != nil {
				return err
			}
		}
		var err error
		created, err = s.writeReply(ctx, actor, n, t, in, first, &typ)
		return err
	})
	return created, t, err
}

// writeReply creates a reply to the thread whose first note is first: internal when it is, on
// its diff line when it is a diff note.
func (s *Service) writeReply(ctx context.Context, actor *authz.Actor, n Noteable, t *Target, in CreateInput, first *ent.Note, typ *note.Type) (*ent.Note, error) {
	return s.writeWith(ctx, actor, n, t, in, first.DiscussionID, typ, first.Internal, func(cr *ent.NoteCreate) {
		if *typ == note.TypeDiffNote {
			cr.SetPosition(first.Position)
			if t.CommitID == nil {
				cr.SetNillableCommitID(first.CommitID)
			}
		}
	})
}

// write creates a user note in the transaction (opened here unless ctx has one).
func (s *Service) write(ctx context.Context, actor *authz.Actor, n Noteable, t *Target, in CreateInput, discussionID string, typ *note.Type, internal bool) (*ent.Note, error) {
	return s.writeWith(ctx, actor, n, t, in, discussionID, typ, internal, func(cr *ent.NoteCreate) {
		if in.Position != nil {
			cr.SetPosition(in.Position.Map())
			if t.CommitID == nil {
				cr.SetNillableCommitID(in.CommitID)
			}
		}
	})
}

// writeWith creates a user note in the transaction (opened here unless ctx has one), set
// completing its columns.
func (s *Service) writeWith(ctx context.Context, actor *authz.Actor, n Noteable, t *Target, in CreateInput, discussionID string, typ *note.Type, internal bool, set func(*ent.NoteCreate)) (*ent.Note, error) {
	var out *ent.Note
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		cr := create(c, t).SetAuthorID(actor.UserID()).SetBody(in.Body).SetInternal(internal).
			SetDiscussionID(discussionID).SetNillableType(typ).SetResolvable(typ != nil && t.Access.Resolvable)
		set(cr)
		if in.CreatedAt != nil && t.Access.BackDate {
			at := in.CreatedAt.UTC().Truncate(time.Millisecond)
			cr.SetCreatedAt(at).SetUpdatedAt(at)
		}
		row, err := cr.Save(ctx)
		if err != nil {
			return err
		}
		if err := n.UserNotesChanged(ctx, t, 1); err != nil {
			return err
		}
		if (t.Type == TypeIssue || t.Type == TypeMergeRequest) && !internal && !confidentialIssue(t) {
			if err := s.crossReference(ctx, actor, refSource{typ: t.Type, iid: *t.IID, projectID: *t.ProjectID}, in.Body); err != nil {
				return err
			}
		}
		// Internal notes and notes on confidential issues record their event too: the feed shows
		// a comment only to those who may read its note and its issue (events' target rules).
		if err := events.Record(ctx, c, events.Commented(row.ID, actor.UserID(), t.ProjectID, t.GroupID)); err != nil {
			return err
		}
		if err := s.noteWritten(ctx, actor, t, row); err != nil {
			return err
		}
		out, err = withAuthors(c.Note.Query().Where(note.ID(row.ID))).Only(ctx)
		return err
	})
	return out, err
}

// create starts a note on t.
func create(c *ent.Client, t *Target) *ent.NoteCreate {
	cr := c.Note.Create().SetNoteableType(note.NoteableType(t.Type)).SetNillableNoteableIid(t.IID).
		SetNillableCommitID(t.CommitID).SetNillableProjectID(t.ProjectID).SetNillableNamespaceID(t.GroupID)
	if t.CommitID == nil {
		cr.SetNoteableID(t.ID)
	}
	return cr
}

// mayChange finds a note the actor may change or delete: its author, or admin_note; never a
// system note, nor on a locked discussion by a non-member.
func (s *Service) mayChange(ctx context.Context, actor *authz.Actor, ref Ref, noteID string) (Noteable, *Target, *ent.Note, error) {
	n, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, nil, err
	}
	row, err := s.note(ctx, actor, t, noteID)
	if err != nil {
		return nil, nil, nil, err
	}
	if actor.IsAnonymous() {
		return nil, nil, nil, apperr.Unauthorized()
	}
	// Authors change their own notes while they may comment (not once the project is archived).
	own := row.AuthorID != nil && *row.AuthorID == actor.UserID() && t.Access.Comment
	if row.System || !(own || t.Access.AdminNotes) || (t.Access.Locked && !t.Access.Member) {
		return nil, nil, nil, apperr.Forbidden("")
	}
	return n, t, row, nil
}

// Update changes a note's body (PUT .../notes/:note_id and the discussion form), recording
// who edited it and when; the observers of edits are told in the same transaction. An
// unchanged body changes nothing and tells no one.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, ref Ref, noteID, body string) (*ent.Note, *Target, error) {
	_, t, row, err := s.mayChange(ctx, actor, ref, noteID)
	if err != nil {
		return nil, nil, err
	}
	if err := checkBody(body); err != nil {
		return nil, nil, err
	}
	if body != row.Body {
		at := time.Now().UTC().Truncate(time.Millisecond)
		if err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
			edited, err := c.Note.UpdateOneID(row.ID).SetBody(body).SetLastEditedAt(at).
				SetUpdatedByID(actor.UserID()).SetUpdatedAt(at).Save(ctx)
			if err != nil {
				return err
			}
			return s.noteUpdated(ctx, actor, t, edited)
		}); err != nil {
			return nil, nil, err
		}
	}
	out, err := withAuthors(s.client.Note.Query().Where(note.ID(row.ID))).Only(ctx)
	return out, t, err
}

// Delete removes a note (DELETE .../notes/:note_id and the discussion form).
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref Ref, noteID string) error {
	n, t, row, err := s.mayChange(ctx, actor, ref, noteID)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.Note.DeleteOneID(row.ID).Exec(ctx); err != nil {
			return err
		}
		return n.UserNotesChanged(ctx, t, -1)
	})
}

// DeleteFor removes every note of a noteable in the transaction in ctx: its domain calls it
// when it removes the object (notes refer to their noteable without a foreign key).
func (s *Service) DeleteFor(ctx context.Context, t *Target) error {
	_, err := db.ClientFrom(ctx, s.client).Note.Delete().Where(of(t)).Exec(ctx)
	return err
}

// AddSystem writes a system note about a change to t by author (nil: no author), in the
// change's transaction (ctx carries it). System notes are individual notes, count no user
// note and record no event.
func (s *Service) AddSystem(ctx context.Context, t *Target, authorID *int, body string) error {
	return create(db.ClientFrom(ctx, s.client), t).SetNillableAuthorID(authorID).SetBody(body).SetSystem(true).
		SetDiscussionID(newDiscussionID()).Exec(ctx)
}

// confidentialIssue reports whether t is a confidential issue.
func confidentialIssue(t *Target) bool {
	is, ok := t.Object.(*ent.Issue)
	return ok && is.Confidential
}
