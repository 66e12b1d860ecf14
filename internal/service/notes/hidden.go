package notes

import (
	"context"
	"regexp"
	"strings"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// crossRefNote reads a cross-reference system note's body: the kind of the referring object
// and its reference as written from the noted object's project ("#3", "app!2",
// "group/app#3", "abc1234" or "group/app@abc1234" for a commit).
var crossRefNote = regexp.MustCompile(`^mentioned in (issue|merge request|commit) (\S+)$`)

// issuableRefBody and commitRefBody split a reference into its project path ("" for the noted
// object's own project) and the referring object's iid or sha.
var (
	issuableRefBody = regexp.MustCompile(`^([A-Za-z0-9_.\-/]*)([#!])(\d+)$`)
	commitRefBody   = regexp.MustCompile(`^(?:([A-Za-z0-9_.\-/]+)@)?([0-9a-fA-F]{7,64})$`)
)

// crossRefPrefix is how every cross-reference note begins (a cheap filter in SQL).
const crossRefPrefix = "mentioned in "

// referrer is the object a cross-reference note names, resolved against the project of the
// object the note is on: a noteable reference the notes domain can find for an actor.
func referrer(body string, base *ent.Project) (Ref, bool) {
	m := crossRefNote.FindStringSubmatch(body)
	if m == nil || base == nil || base.Edges.Namespace == nil {
		return Ref{}, false
	}
	var path, id, typ string
	switch m[1] {
	case "commit":
		c := commitRefBody.FindStringSubmatch(m[2])
		if c == nil {
			return Ref{}, false
		}
		path, id, typ = c[1], c[2], TypeCommit
	default:
		c := issuableRefBody.FindStringSubmatch(m[2])
		if c == nil {
			return Ref{}, false
		}
		path, id, typ = c[1], c[3], TypeIssue
		if c[2] == "!" {
			typ = TypeMergeRequest
		}
	}
	switch {
	case path == "":
		path = projectFullPath(base)
	case !strings.Contains(path, "/"):
		path = base.Edges.Namespace.FullPath + "/" + path
	}
	return Ref{Type: typ, Parent: path, ID: id}, true
}

// hiddenCrossReferences are the ids of the cross-reference system notes among rows that the
// actor may not see: GitLab checks at read time that the reader may read the object a
// "mentioned in ..." note names (a private project's issue mentioning a public one writes the
// note on the public issue, and only readers of the private issue see it). A referring object
// that is gone hides its note too. Administrators read everything.
func (s *Service) hiddenCrossReferences(ctx context.Context, actor *authz.Actor, t *Target, rows []*ent.Note) (map[int]bool, error) {
	hidden := map[int]bool{}
	if actor.IsAdmin() || t.ProjectID == nil {
		return hidden, nil
	}
	var base *ent.Project
	seen := map[Ref]bool{}
	for _, n := range rows {
		if !n.System || !strings.HasPrefix(n.Body, crossRefPrefix) {
			continue
		}
		if base == nil {
			var err error
			base, err = db.ClientFrom(ctx, s.client).Project.Query().Where(project.ID(*t.ProjectID)).WithNamespace().Only(ctx)
			if err != nil {
				return nil, err
			}
		}
		ref, ok := referrer(n.Body, base)
		if !ok {
			continue
		}
		visible, known := seen[ref]
		if !known {
			var err error
			if visible, err = s.readableRef(ctx, actor, ref); err != nil {
				return nil, err
			}
			seen[ref] = visible
		}
		if !visible {
			hidden[n.ID] = true
		}
	}
	return hidden, nil
}

// readableRef reports whether the actor may read the noteable ref names.
func (s *Service) readableRef(ctx context.Context, actor *authz.Actor, ref Ref) (bool, error) {
	n, err := s.noteable(ref.Type)
	if err != nil {
		return false, nil // a kind not wired: nobody reads it
	}
	if _, err := n.Find(ctx, actor, ref); err != nil {
		if isHidden(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// visibleNotes drops from rows the cross-reference notes the actor may not see.
func (s *Service) visibleNotes(ctx context.Context, actor *authz.Actor, t *Target, rows []*ent.Note) ([]*ent.Note, error) {
	hidden, err := s.hiddenCrossReferences(ctx, actor, t, rows)
	if err != nil || len(hidden) == 0 {
		return rows, err
	}
	out := make([]*ent.Note, 0, len(rows))
	for _, n := range rows {
		if !hidden[n.ID] {
			out = append(out, n)
		}
	}
	return out, nil
}

// notHidden is a predicate leaving out the target's cross-reference notes the actor may not
// see, for lists counted and paged in SQL; nil when none is hidden.
func (s *Service) notHidden(ctx context.Context, actor *authz.Actor, t *Target) (predicate.Note, error) {
	if actor.IsAdmin() || t.ProjectID == nil {
		return nil, nil
	}
	rows, err := db.ClientFrom(ctx, s.client).Note.Query().
		Where(of(t), note.System(true), note.BodyHasPrefix(crossRefPrefix)).
		Select(note.FieldID, note.FieldBody, note.FieldSystem).All(ctx)
	if err != nil {
		return nil, err
	}
	hidden, err := s.hiddenCrossReferences(ctx, actor, t, rows)
	if err != nil || len(hidden) == 0 {
		return nil, err
	}
	ids := make([]int, 0, len(hidden))
	for id := range hidden {
		ids = append(ids, id)
	}
	return note.IDNotIn(ids...), nil
}
