package notes

import (
	"context"
	"regexp"
	"strconv"

	"anvil/ent/issue"
	"anvil/ent/note"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// issueRef finds same-project issue references (#12) in Markdown text: not part of a word, a
// path or an HTML entity (&#39;).
var issueRef = regexp.MustCompile(`(?:^|[^\w/&#])#(\d+)\b`)

// issueRefs are the iids text references, each once, in order.
func issueRefs(text string) []int {
	var out []int
	seen := map[int]bool{}
	for _, m := range issueRef.FindAllStringSubmatch(text, -1) {
		if iid, err := strconv.Atoi(m[1]); err == nil && !seen[iid] {
			seen[iid] = true
			out = append(out, iid)
		}
	}
	return out
}

// crossReference writes GitLab's "mentioned in issue #M" system note on each other issue of the
// project that text (written on the issue source, iid sourceIID) references and that has no
// such note yet. Confidential sources and internal notes mention nothing: the note would show
// the reference to readers of the mentioned issue who may not see its source.
func (s *Service) crossReference(ctx context.Context, actor *authz.Actor, projectID, sourceIID int, text string) error {
	return s.crossReferenceFrom(ctx, actor, projectID, sourceIID, "mentioned in issue #"+strconv.Itoa(sourceIID), text)
}

// crossReferenceFrom writes body as the cross-reference note on each issue of the project that
// text references (but the issue skipIID, the source itself; 0 for other kinds of source) and
// that has no such note yet.
func (s *Service) crossReferenceFrom(ctx context.Context, actor *authz.Actor, projectID, skipIID int, body, text string) error {
	iids := issueRefs(text)
	if len(iids) == 0 || actor.IsAnonymous() {
		return nil
	}
	c := db.ClientFrom(ctx, s.client)
	targets, err := c.Issue.Query().Where(issue.ProjectID(projectID), issue.IidIn(iids...), issue.IidNEQ(skipIID)).All(ctx)
	if err != nil {
		return err
	}
	author := actor.UserID()
	for _, is := range targets {
		t := &Target{Type: TypeIssue, ID: is.ID, IID: &is.Iid, ProjectID: &is.ProjectID}
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
