package awardemoji

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/note"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Awardable names an awardable by its kind and ref, as its REST route does.
type Awardable struct {
	Kind Kind
	Ref  Ref
}

// ByGlobalID names the awardable a GraphQL global id's model and id name (Issue, Note and its
// thread classes, ProjectSnippet, Epic) as its REST route would. The row is read without
// visibility: the kind's resolver decides that when the award is made, so an id the caller may
// not see is the same 404 as one that does not exist.
func (s *Service) ByGlobalID(ctx context.Context, model string, id int) (Awardable, error) {
	c := db.ClientFrom(ctx, s.client)
	var out Awardable
	var err error
	switch model {
	case "Issue":
		out, err = issueAwardable(ctx, c, id)
	case "Note", "DiscussionNote", "DiffNote":
		out, err = noteAwardable(ctx, c, id)
	case "ProjectSnippet":
		out, err = snippetAwardable(ctx, c, id)
	case "Epic":
		out, err = epicAwardable(ctx, c, id)
	default:
		return out, apperr.NotFound("Awardable")
	}
	if ent.IsNotFound(err) || (err == nil && !s.registry.Has(out.Kind)) {
		return out, apperr.NotFound("Awardable")
	}
	return out, err
}

func issueAwardable(ctx context.Context, c *ent.Client, id int) (Awardable, error) {
	is, err := c.Issue.Get(ctx, id)
	if err != nil {
		return Awardable{}, err
	}
	return Awardable{IssueKind, Ref{Parent: strconv.Itoa(is.ProjectID), Keys: []string{strconv.Itoa(is.Iid)}}}, nil
}

func snippetAwardable(ctx context.Context, c *ent.Client, id int) (Awardable, error) {
	sn, err := c.Snippet.Get(ctx, id)
	if err != nil {
		return Awardable{}, err
	}
	if sn.ProjectID == nil {
		return Awardable{}, &ent.NotFoundError{} // personal snippets take no awards through the API
	}
	return Awardable{SnippetKind, Ref{Parent: strconv.Itoa(*sn.ProjectID), Keys: []string{strconv.Itoa(sn.ID)}}}, nil
}

func epicAwardable(ctx context.Context, c *ent.Client, id int) (Awardable, error) {
	e, err := c.Epic.Get(ctx, id)
	if err != nil {
		return Awardable{}, err
	}
	return Awardable{EpicKind, Ref{Parent: strconv.Itoa(e.GroupID), Keys: []string{strconv.Itoa(e.Iid)}}}, nil
}

// noteAwardable is a note under its noteable's ref.
func noteAwardable(ctx context.Context, c *ent.Client, id int) (Awardable, error) {
	n, err := c.Note.Get(ctx, id)
	if err != nil {
		return Awardable{}, err
	}
	if n.NoteableID == nil {
		return Awardable{}, &ent.NotFoundError{} // a commit's note: not served here
	}
	var parent Awardable
	kind := map[note.NoteableType]Kind{note.NoteableTypeIssue: IssueNoteKind, note.NoteableTypeSnippet: SnippetNoteKind,
		note.NoteableTypeEpic: EpicNoteKind}[n.NoteableType]
	switch n.NoteableType {
	case note.NoteableTypeIssue:
		parent, err = issueAwardable(ctx, c, *n.NoteableID)
	case note.NoteableTypeSnippet:
		parent, err = snippetAwardable(ctx, c, *n.NoteableID)
	case note.NoteableTypeEpic:
		parent, err = epicAwardable(ctx, c, *n.NoteableID)
	default:
		return Awardable{}, &ent.NotFoundError{}
	}
	if err != nil {
		return Awardable{}, err
	}
	return Awardable{kind, Ref{Parent: parent.Ref.Parent, Keys: append(parent.Ref.Keys, strconv.Itoa(n.ID))}}, nil
}

// All returns every award of an awardable the actor may read, oldest first, each with its user
// (GraphQL's awardEmoji connections; an object has few).
func (s *Service) All(ctx context.Context, actor *authz.Actor, k Kind, ref Ref) ([]*ent.AwardEmoji, error) {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return nil, err
	}
	return s.of(ctx, t).WithUser().Order(ent.Asc(awardemoji.FieldID)).All(ctx)
}

// Unaward removes the actor's own award named name (GraphQL's awardEmojiRemove); an award the
// actor has not made is GitLab's payload error.
func (s *Service) Unaward(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, name string) (*ent.AwardEmoji, error) {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return nil, err
	}
	if !t.CanAward || actor.IsAnonymous() {
		return nil, apperr.NotFound("Award Emoji")
	}
	name = Normalize(name)
	a, err := s.of(ctx, t).Where(awardemoji.UserID(actor.UserID()), awardemoji.Name(name)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.Unprocessable("User has not awarded emoji of type " + name + " on the awardable")
	}
	if err != nil {
		return nil, err
	}
	return a, db.ClientFrom(ctx, s.client).AwardEmoji.DeleteOneID(a.ID).Exec(ctx)
}

// Toggle awards the emoji, or removes the actor's award of it when there is one (GraphQL's
// awardEmojiToggle); on reports which.
func (s *Service) Toggle(ctx context.Context, actor *authz.Actor, k Kind, ref Ref, name string) (a *ent.AwardEmoji, on bool, err error) {
	t, err := s.registry.resolve(ctx, actor, k, ref)
	if err != nil {
		return nil, false, err
	}
	if !actor.IsAnonymous() {
		mine, err := s.of(ctx, t).Where(awardemoji.UserID(actor.UserID()), awardemoji.Name(Normalize(name))).Exist(ctx)
		if err != nil {
			return nil, false, err
		}
		if mine {
			a, err := s.Unaward(ctx, actor, k, ref, name)
			return a, false, err
		}
	}
	a, err = s.Award(ctx, actor, k, ref, name)
	return a, err == nil, err
}
