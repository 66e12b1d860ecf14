package epics

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/epicissue"
	"anvil/ent/issue"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"
	"anvil/internal/service/issues"
)

// GitLab's refusals of an epic-issue link.
const (
	msgNoIssue             = "No matching issue found. Make sure that you are adding a valid issue URL."
	msgIssueAssigned       = "Issue(s) already assigned"
	msgConfidentialEpicFor = "Cannot assign a confidential epic to a non-confidential issue. Make the epic public or the issue confidential and try again"
)

// IssueLink is an epic-issue link with its epic and issue, as presented.
type IssueLink struct {
	Link  *ent.EpicIssue
	Epic  View
	Issue *ent.Issue
}

// IssuesResult is a page of an epic's issues with each one's link id (epic_issue_id).
type IssuesResult struct {
	pagination.Result[*ent.Issue]
	LinkIDs map[int]int
}

// Issues lists the issues of the epic iid of group ref that the actor may read, in the order
// they were added (signed-in readers of the epic).
func (s *Service) Issues(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (IssuesResult, error) {
	res := IssuesResult{Result: pagination.Result[*ent.Issue]{Page: page}}
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return res, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return res, err
	}
	links, err := db.ClientFrom(ctx, s.client).EpicIssue.Query().Where(epicissue.EpicID(e.ID)).All(ctx)
	if err != nil {
		return res, err
	}
	res.LinkIDs = map[int]int{}
	ids := make([]int, 0, len(links))
	for _, l := range links {
		res.LinkIDs[l.IssueID] = l.ID
		ids = append(ids, l.IssueID)
	}
	q, err := s.issues.Query(ctx, actor, issues.Parent{}, issues.ListParams{Scope: "all", IncludeArchived: true})
	if err != nil {
		return res, err
	}
	q = q.Where(issue.IDIn(ids...))
	n, err := q.Clone().Count(ctx)
	if err != nil {
		return res, err
	}
	rows, err := issues.Load(q).Order(issue.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	// In the order the issues were added to the epic.
	byLink := make([]*ent.Issue, 0, len(rows))
	for _, l := range links {
		for _, is := range rows {
			if is.ID == l.IssueID {
				byLink = append(byLink, is)
			}
		}
	}
	res.Items, res.Total = byLink, n
	return res, nil
}

// AssignIssue puts the issue with global id issueID in the epic iid of group ref, moving it
// out of another epic: the actor reads the epic and relates the issue (reads it, at least a
// Guest of its project); the issue's project must lie in the epic's group or a subgroup.
func (s *Service) AssignIssue(ctx context.Context, actor *authz.Actor, ref, iid, issueID string) (IssueLink, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return IssueLink{}, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return IssueLink{}, err
	}
	id, err := strconv.Atoi(issueID)
	if err != nil {
		return IssueLink{}, apperr.Invalid("issue_id")
	}
	is, err := s.relatableIssue(ctx, actor, id)
	if err != nil {
		return IssueLink{}, err
	}
	ns := is.Edges.Project.Edges.Namespace
	if ns.ID != g.ID && !isDescendant(ns.FullPath, g.FullPath) {
		return IssueLink{}, apperr.NotFoundMessage(msgNoIssue)
	}
	if e.Confidential && !is.Confidential {
		return IssueLink{}, apperr.Conflict(msgConfidentialEpicFor)
	}
	var link *ent.EpicIssue
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		cur, err := c.EpicIssue.Query().Where(epicissue.IssueID(is.ID)).Only(ctx)
		switch {
		case err == nil && cur.EpicID == e.ID:
			return apperr.Conflict(msgIssueAssigned)
		case err == nil:
			if err := c.EpicIssue.DeleteOne(cur).Exec(ctx); err != nil {
				return err
			}
		case !ent.IsNotFound(err):
			return err
		}
		link, err = c.EpicIssue.Create().SetEpicID(e.ID).SetIssueID(is.ID).Save(ctx)
		return err
	})
	if err != nil {
		return IssueLink{}, err
	}
	v, err := s.view(ctx, g.Namespace, e)
	return IssueLink{Link: link, Epic: v, Issue: is}, err
}

// RemoveIssue removes the epic-issue link linkID from the epic iid of group ref.
func (s *Service) RemoveIssue(ctx context.Context, actor *authz.Actor, ref, iid, linkID string) (IssueLink, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return IssueLink{}, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return IssueLink{}, err
	}
	id, err := strconv.Atoi(linkID)
	if err != nil {
		return IssueLink{}, apperr.Invalid("epic_issue_id")
	}
	c := db.ClientFrom(ctx, s.client)
	link, err := c.EpicIssue.Query().Where(epicissue.ID(id), epicissue.EpicID(e.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return IssueLink{}, apperr.RecordNotFound()
	}
	if err != nil {
		return IssueLink{}, err
	}
	is, err := s.relatableIssue(ctx, actor, link.IssueID)
	if apperr.IsNotFound(err) {
		return IssueLink{}, apperr.Forbidden("")
	}
	if err != nil {
		return IssueLink{}, err
	}
	if err := c.EpicIssue.DeleteOne(link).Exec(ctx); err != nil {
		return IssueLink{}, err
	}
	v, err := s.view(ctx, g.Namespace, e)
	return IssueLink{Link: link, Epic: v, Issue: is}, err
}

// relatableIssue returns the issue id if the actor may relate it (admin_issue_relation: reads
// it and is at least a Guest of its project); 404 with GitLab's sentence otherwise.
func (s *Service) relatableIssue(ctx context.Context, actor *authz.Actor, id int) (*ent.Issue, error) {
	is, err := issues.Load(db.ClientFrom(ctx, s.client).Issue.Query().Where(issue.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundMessage(msgNoIssue)
	}
	if err != nil {
		return nil, err
	}
	level, readable, err := s.policy.ProjectLevel(ctx, actor, is.Edges.Project)
	if err != nil {
		return nil, err
	}
	if !readable || !issues.CanRead(actor, is.Edges.Project, level, is) || !actor.IsAdmin() && level < authz.Guest {
		return nil, apperr.NotFoundMessage(msgNoIssue)
	}
	return is, nil
}
