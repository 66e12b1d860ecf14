package versions

import (
	"context"
	"html"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/notes"
	"anvil/internal/service/projects"
)

// CommitsNote writes GitLab's system note about the commits a push added to a merge request:
// "added N commits", the list of their short ids and titles, and the link comparing the
// version with the previous one. Register it with OnCommitsAdded.
func (s *Service) CommitsNote(nt *notes.Service) CommitsAdded {
	return func(ctx context.Context, mr *ent.MergeRequest, authorID *int, previous, current *ent.MergeRequestDiff, added []*ent.MergeRequestDiffCommit) error {
		proj, err := db.ClientFrom(ctx, s.client).Project.Query().Where(project.ID(mr.ProjectID)).WithNamespace().Only(ctx)
		if err != nil {
			return err
		}
		iid, pid := mr.Iid, mr.ProjectID
		t := &notes.Target{Type: notes.TypeMergeRequest, ID: mr.ID, IID: &iid, ProjectID: &pid, Title: mr.Title, Object: mr}
		return nt.AddSystem(ctx, t, authorID, commitsNoteBody(projects.FullPath(proj), mr.Iid, previous, current, added))
	}
}

// commitsNoteBody is the note's text.
func commitsNoteBody(fullPath string, iid int, previous, current *ent.MergeRequestDiff, added []*ent.MergeRequestDiffCommit) string {
	n := len(added)
	word := "commit"
	if n != 1 {
		word = "commits"
	}
	var b strings.Builder
	b.WriteString("added " + strconv.Itoa(n) + " " + word + "\n\n<ul>")
	for _, c := range added {
		title := (&git.Commit{Message: c.Message}).Subject()
		b.WriteString("<li>" + git.ObjectID(c.Sha).Short() + " - " + html.EscapeString(title) + "</li>")
	}
	b.WriteString("</ul>")
	if previous.HeadCommitSha != nil {
		b.WriteString("\n\n[Compare with previous version](/" + fullPath + "/-/merge_requests/" + strconv.Itoa(iid) +
			"/diffs?diff_id=" + strconv.Itoa(current.ID) + "&start_sha=" + *previous.HeadCommitSha + ")")
	}
	return b.String()
}
