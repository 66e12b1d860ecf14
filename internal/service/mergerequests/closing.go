package mergerequests

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestdiffcommit"
	"anvil/ent/predicate"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/issues"
	"anvil/internal/service/projects"
)

// issueRef is one issue issueReference: "#12", "group/project#12", or an issue URL
// (".../group/project/-/issues/12"); path is empty for the merge request's own project.
const issueRef = `(?:(?:https?://[^\s/]+/)?([A-Za-z0-9_.][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.][A-Za-z0-9_.\-]*)+)(?:/-/issues/|#)|#)(\d+)`

var (
	// closingPattern is GitLab's default issue closing pattern: a closing word (close, fix,
	// resolve, implement in their forms), an optional colon, then one or more issue references
	// joined by commas, spaces or "and".
	closingPattern = regexp.MustCompile(`(?i)\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?):? +((?:(?:issues? +)?` +
		issueRef + `(?:(?: *,? +and +| *,? *)?))+)`)
	refPattern = regexp.MustCompile(issueRef)
)

// issueReference is an issue named in text: the project path ("" for the merge request's own) and
// the iid.
type issueReference struct {
	path string
	iid  int
}

// closingRefs are the issue references of text's closing phrases ("Closes #1, #2 and g/p#3").
func closingRefs(text string) []issueReference {
	var out []issueReference
	for _, m := range closingPattern.FindAllStringSubmatch(text, -1) {
		out = append(out, issueRefs(m[1])...)
	}
	return out
}

// issueRefs are every issue issueReference of text.
func issueRefs(text string) []issueReference {
	var out []issueReference
	for _, m := range refPattern.FindAllStringSubmatch(text, -1) {
		iid, err := strconv.Atoi(m[2])
		if err == nil {
			out = append(out, issueReference{path: m[1], iid: iid})
		}
	}
	return out
}

// ClosingIssues returns the issues merging mr closes, as its author may read them: those its
// title, description and latest version's commit messages name in a closing phrase, when it
// targets the project's default branch (GitLab's closes_issues). mr is loaded with Load.
func (s *Service) ClosingIssues(ctx context.Context, mr *ent.MergeRequest) ([]*ent.Issue, error) {
	if mr.AuthorID == nil {
		return nil, nil
	}
	author, err := db.ClientFrom(ctx, s.client).User.Get(ctx, *mr.AuthorID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.closingIssues(ctx, authz.System(author), mr)
}

func (s *Service) closingIssues(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) ([]*ent.Issue, error) {
	proj := mr.Edges.Project
	if proj == nil || mr.TargetBranch != proj.DefaultBranch {
		return nil, nil
	}
	text := mr.Title + "\n" + str(mr.Description)
	if mr.LatestDiffID != nil {
		msgs, err := db.ClientFrom(ctx, s.client).MergeRequestDiffCommit.Query().
			Where(mergerequestdiffcommit.MergeRequestDiffID(*mr.LatestDiffID)).
			Select(mergerequestdiffcommit.FieldMessage).Strings(ctx)
		if err != nil {
			return nil, err
		}
		text += "\n" + strings.Join(msgs, "\n")
	}
	return s.resolveIssues(ctx, actor, proj, closingRefs(text))
}

// resolveIssues reads the issues refs name (relative to proj) that the actor may read, each
// once, in the order named.
func (s *Service) resolveIssues(ctx context.Context, actor *authz.Actor, proj *ent.Project, rs []issueReference) ([]*ent.Issue, error) {
	if len(rs) == 0 {
		return []*ent.Issue{}, nil
	}
	readable, err := s.issues.Readable(ctx, actor)
	if err != nil {
		return nil, err
	}
	c := db.ClientFrom(ctx, s.client)
	byProject := map[string]int{"": proj.ID, projects.FullPath(proj): proj.ID}
	var preds []predicate.Issue
	type key struct{ pid, iid int }
	var order []key
	for _, r := range rs {
		pid, ok := byProject[r.path]
		if !ok {
			p, err := s.projects.Lookup(ctx, r.path)
			switch {
			case apperr.IsNotFound(err):
				pid = 0
			case err != nil:
				return nil, err
			default:
				pid = p.ID
			}
			byProject[r.path] = pid
		}
		if pid == 0 {
			continue
		}
		order = append(order, key{pid, r.iid})
		preds = append(preds, issue.And(issue.ProjectID(pid), issue.Iid(r.iid)))
	}
	if len(preds) == 0 {
		return []*ent.Issue{}, nil
	}
	found, err := issues.Load(c.Issue.Query().Where(issue.Or(preds...), readable)).All(ctx)
	if err != nil {
		return nil, err
	}
	byKey := map[key]*ent.Issue{}
	for _, is := range found {
		byKey[key{is.ProjectID, is.Iid}] = is
	}
	out := make([]*ent.Issue, 0, len(found))
	seen := map[int]bool{}
	for _, k := range order {
		if is := byKey[k]; is != nil && !seen[is.ID] {
			seen[is.ID] = true
			out = append(out, is)
		}
	}
	return out, nil
}

// ClosesIssues returns the issues the merge request iid of project ref closes when merged, as
// the actor may read them (GET .../closes_issues).
func (s *Service) ClosesIssues(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.Issue, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	return s.closingIssues(ctx, actor, mr)
}

// RelatedIssues returns the issues the merge request iid of project ref closes or mentions in
// its title and description, as the actor may read them (GET .../related_issues).
func (s *Service) RelatedIssues(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.Issue, error) {
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, err
	}
	closing, err := s.closingIssues(ctx, actor, mr)
	if err != nil {
		return nil, err
	}
	mentioned, err := s.resolveIssues(ctx, actor, mr.Edges.Project, issueRefs(mr.Title+"\n"+str(mr.Description)))
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	out := make([]*ent.Issue, 0, len(closing)+len(mentioned))
	for _, is := range append(closing, mentioned...) {
		if !seen[is.ID] {
			seen[is.ID] = true
			out = append(out, is)
		}
	}
	return out, nil
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ClosedBy returns the open merge requests of the issue's project that close the issue iid of
// project ref when merged (GET /projects/:id/issues/:issue_iid/closed_by), oldest first, if the
// actor may read merge requests there; a closed issue has none, as in GitLab.
func (s *Service) ClosedBy(ctx context.Context, actor *authz.Actor, ref, iid string) ([]*ent.MergeRequest, error) {
	is, level, err := s.issues.Find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	out := []*ent.MergeRequest{}
	if is.State != issue.StateOpened || !authz.CanProject(actor, is.Edges.Project, level, authz.ReadMergeRequest) {
		return out, nil
	}
	open, err := Load(db.ClientFrom(ctx, s.client).MergeRequest.Query().
		Where(mergerequest.ProjectID(is.ProjectID), mergerequest.StateEQ(mergerequest.StateOpened))).
		Order(ent.Asc(mergerequest.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, mr := range open {
		closing, err := s.ClosingIssues(ctx, mr)
		if err != nil {
			return nil, err
		}
		for _, c := range closing {
			if c.ID == is.ID {
				out = append(out, mr)
				break
			}
		}
	}
	return out, nil
}
