package notes

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/note"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// issuableRef finds issue (#12) and merge request (!12) references in Markdown text, each
// optionally after a project: "group/project#12" (a project's full path), "project#12" (a
// project of the source's namespace), or none (the source's own project). A reference is not
// part of a word, a path or an HTML entity (&#39;).
var issuableRef = regexp.MustCompile(`(?:^|[^\w/&#.\-])((?:[A-Za-z0-9_][A-Za-z0-9_.\-]*)(?:/[A-Za-z0-9_][A-Za-z0-9_.\-]*)*)?([#!])(\d+)\b`)

// reference is one issuable a text references: the project as written ("" for the source's
// own), the kind (TypeIssue or TypeMergeRequest) and the iid.
type reference struct {
	path string
	typ  string
	iid  int
}

// references are the issuables text references, each once, in order.
func references(text string) []reference {
	var out []reference
	seen := map[reference]bool{}
	for _, m := range issuableRef.FindAllStringSubmatch(text, -1) {
		iid, err := strconv.Atoi(m[3])
		if err != nil {
			continue
		}
		r := reference{path: strings.ToLower(m[1]), typ: TypeIssue, iid: iid}
		if m[2] == "!" {
			r.typ = TypeMergeRequest
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// refSource is where references are written: an issue or a merge request (typ) with iid in
// the project projectID.
type refSource struct {
	typ       string
	iid       int
	projectID int
}

// kindName is how GitLab's cross-reference note names a kind.
func kindName(typ string) string {
	if typ == TypeMergeRequest {
		return "merge request"
	}
	return "issue"
}

// sigil is the reference prefix of a kind.
func sigil(typ string) string {
	if typ == TypeMergeRequest {
		return "!"
	}
	return "#"
}

// crossReference writes GitLab's cross-reference system note ("mentioned in issue #M",
// "mentioned in merge request group/project!M") on each issue and merge request that text,
// written on src by actor, references and that the actor may read, in the source's project or
// in another one, unless it has that note already; the source never mentions itself. The
// source is named as seen from the referenced one's project: "#M" in the same project,
// "project#M" in the same namespace, the full path otherwise (GitLab's to_reference). Callers
// skip confidential sources and internal notes: the note would show the reference to readers
// of the mentioned issuable who may not see its source.
func (s *Service) crossReference(ctx context.Context, actor *authz.Actor, src refSource, text string) error {
	refs := references(text)
	if len(refs) == 0 || actor.IsAnonymous() {
		return nil
	}
	c := db.ClientFrom(ctx, s.client)
	from, err := c.Project.Query().Where(project.ID(src.projectID)).WithNamespace().Only(ctx)
	if err != nil {
		return err
	}
	author := actor.UserID()
	for _, r := range refs {
		parent := projectFullPath(from)
		switch {
		case strings.Contains(r.path, "/"):
			parent = r.path
		case r.path != "":
			parent = from.Edges.Namespace.FullPath + "/" + r.path
		}
		n, err := s.noteable(r.typ)
		if err != nil {
			continue // merge requests not wired (tests of other domains)
		}
		t, err := n.Find(ctx, actor, Ref{Type: r.typ, Parent: parent, ID: strconv.Itoa(r.iid)})
		if err != nil {
			if isHidden(err) {
				continue // not there, or not for the actor to see: no note
			}
			return err
		}
		if t.ProjectID == nil || (*t.ProjectID == src.projectID && r.typ == src.typ && r.iid == src.iid) {
			continue
		}
		body, err := s.crossReferenceBody(ctx, c, from, src, *t.ProjectID)
		if err != nil {
			return err
		}
		exists, err := c.Note.Query().Where(of(t), note.System(true), note.Body(body)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			continue
		}
		if err := s.AddSystem(ctx, t, &author, body); err != nil {
			return err
		}
	}
	return nil
}

// crossReferenceBody is the note on an issuable of project toID naming src (of project from).
func (s *Service) crossReferenceBody(ctx context.Context, c *ent.Client, from *ent.Project, src refSource, toID int) (string, error) {
	ref := sigil(src.typ) + strconv.Itoa(src.iid)
	if toID != from.ID {
		to, err := c.Project.Get(ctx, toID)
		if err != nil {
			return "", err
		}
		if to.NamespaceID == from.NamespaceID {
			ref = from.Path + ref
		} else {
			ref = projectFullPath(from) + ref
		}
	}
	return "mentioned in " + kindName(src.typ) + " " + ref, nil
}

// projectFullPath is p's full path; p is loaded with its namespace.
func projectFullPath(p *ent.Project) string { return p.Edges.Namespace.FullPath + "/" + p.Path }

// isHidden reports an error that means the issuable is absent or invisible to the actor (and
// so gets no cross-reference): not found, forbidden, or a malformed reference.
func isHidden(err error) bool {
	var e *apperr.Error
	return errors.As(err, &e) && (e.Kind == apperr.KindNotFound || e.Kind == apperr.KindForbidden || e.Kind == apperr.KindParam)
}
