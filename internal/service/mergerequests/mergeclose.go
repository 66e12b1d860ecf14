package mergerequests

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/internal/authz"
	"anvil/internal/service/issues"
	"anvil/internal/service/projects"
	"anvil/internal/service/resourceevents"
)

// closingReferences are the references of the issues merging mr closes ("#1" in its own
// project, "group/project#2" elsewhere), for the default merge commit message's "Closes"
// line; none when they cannot be read (the message is still right without them).
func (s *Service) closingReferences(ctx context.Context, mr *ent.MergeRequest) []string {
	list, err := s.ClosingIssues(ctx, mr)
	if err != nil {
		return nil
	}
	refs := make([]string, 0, len(list))
	for _, is := range list {
		ref := "#" + strconv.Itoa(is.Iid)
		if is.ProjectID != mr.ProjectID && is.Edges.Project != nil {
			ref = projects.FullPath(is.Edges.Project) + ref
		}
		refs = append(refs, ref)
	}
	return refs
}

// closeIssues closes, as the merger, the open issues merging mr closes (GitLab's post-merge
// close_issues); an issue the merger may not update stays open. The merge is done and
// acknowledged, so failures do not undo it.
func (s *Service) closeIssues(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest) {
	list, err := s.ClosingIssues(ctx, mr)
	if err != nil {
		return
	}
	closeEvent := "close"
	id := mr.ID
	for _, is := range list {
		if is.State != issue.StateOpened {
			continue
		}
		_, _ = s.issues.Update(ctx, actor, strconv.Itoa(is.ProjectID), strconv.Itoa(is.Iid),
			issues.UpdateInput{StateEvent: &closeEvent, ClosedVia: resourceevents.Source{MergeRequestID: &id}})
	}
}
