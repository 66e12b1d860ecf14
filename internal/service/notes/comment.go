package notes

import (
	"context"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// CommentInput is a commit comment of GitLab's older commit comments API (POST
// .../repository/commits/:sha/comments): its text, and optionally the line of the commit's
// diff it is on: the file Path, the Line number and LineType ("new": an added line, numbered
// on the new side; "old": a removed line, numbered on the old side).
type CommentInput struct {
	Note     string
	Path     *string
	Line     int
	LineType string
}

// Comments lists a commit's comments oldest first (GET .../repository/commits/:sha/comments).
func (s *Service) Comments(ctx context.Context, actor *authz.Actor, ref Ref, page pagination.Offset) (pagination.Result[*ent.Note], *Target, error) {
	return s.List(ctx, actor, ref, ListParams{}, Order{By: "created_at", Sort: "asc"}, page)
}

// Comment writes a commit comment: a diff note on the line when the commit's diff has it (as
// GitLab's line_code lookup finds it), else a comment of its own; GitLab's API answers 400
// "Failed to save note {...}" for an invalid one.
func (s *Service) Comment(ctx context.Context, actor *authz.Actor, ref Ref, in CommentInput) (*ent.Note, *Target, error) {
	n, t, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, nil, err
	}
	if err := mayComment(actor, t); err != nil {
		return nil, nil, err
	}
	if p := bodyProblem(in.Note); p != "" {
		return nil, nil, apperr.BadRequest("Failed to save note " + p)
	}
	create := CreateInput{Body: in.Note}
	var typ *note.Type
	if in.Path != nil {
		pos, err := s.commentPosition(ctx, t, in)
		if err != nil {
			return nil, nil, err
		}
		if pos != nil {
			dn := note.TypeDiffNote
			typ, create.Position = &dn, pos
		}
	}
	created, err := s.write(ctx, actor, n, t, create, newDiscussionID(), typ, false)
	return created, t, err
}

// commentPosition is the text position of a comment's line in its commit's diff against the
// commit's first parent, nil when the diff has no such line.
func (s *Service) commentPosition(ctx context.Context, t *Target, in CommentInput) (*Position, error) {
	d := s.diffsOf(t.Type)
	c, ok := t.Object.(*git.Commit)
	if d == nil || !ok {
		return nil, nil
	}
	parent := ""
	if len(c.Parents) > 0 {
		parent = string(c.Parents[0])
	}
	f, err := d.FileDiff(ctx, t, parent, string(c.ID), []string{*in.Path})
	if err != nil || f == nil || f.NewPath != *in.Path {
		return nil, err
	}
	for _, l := range DiffLines(f.Patch) {
		num := l.New
		if in.LineType == "old" {
			num = l.Old
		}
		if l.Type() != in.LineType || num == nil || *num != in.Line {
			continue
		}
		oldPath, newPath := f.OldPath, f.NewPath
		return &Position{
			BaseSHA: parent, StartSHA: parent, HeadSHA: string(c.ID), PositionType: PositionText,
			OldPath: &oldPath, NewPath: &newPath, OldLine: l.Old, NewLine: l.New,
		}, nil
	}
	return nil, nil
}
