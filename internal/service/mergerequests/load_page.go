package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestassignee"
	"anvil/ent/mergerequestlabel"
	"anvil/ent/mergerequestreviewer"
	"anvil/ent/user"
)

// loadPage reads the merge requests with ids and what the list shape shows of them, in fewer
// statements than Load: ent reads each edge with a statement of its own, so Load reads users
// up to six times (author, merged_by, closed_by, merge_user, assignees, reviewers) and
// projects twice (target and source, nearly always the same). Here the people of every role
// are one statement, and only the target project is read (the list shape shows the source
// project's id alone). Everything else is as Load reads it.
func loadPage(ctx context.Context, c *ent.Client, ids []int) ([]*ent.MergeRequest, error) {
	rows, err := withVotes(c.MergeRequest.Query().Where(mergerequest.IDIn(ids...))).
		WithMilestone(func(mq *ent.MilestoneQuery) { mq.WithGroup() }).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		WithLabelLinks(func(lq *ent.MergeRequestLabelQuery) {
			lq.WithLabel().Order(mergerequestlabel.ByLabelField("title"))
		}).
		WithAssigneeLinks(func(aq *ent.MergeRequestAssigneeQuery) { aq.Order(mergerequestassignee.ByID()) }).
		WithReviewerLinks(func(rq *ent.MergeRequestReviewerQuery) { rq.Order(mergerequestreviewer.ByID()) }).
		WithDiffs(func(dq *ent.MergeRequestDiffQuery) { dq.Where(latestDiff()) }).
		All(ctx)
	if err != nil {
		return nil, err
	}
	return rows, loadPeople(ctx, c, rows)
}

// loadPeople reads the users every role of rows names in one statement and sets the edges
// Load would have set: Author, MergedBy, ClosedBy, MergeUser, and each assignee and reviewer
// link's User.
func loadPeople(ctx context.Context, c *ent.Client, rows []*ent.MergeRequest) error {
	seen := map[int]bool{}
	var ids []int
	want := func(id *int) {
		if id != nil && !seen[*id] {
			seen[*id] = true
			ids = append(ids, *id)
		}
	}
	for _, mr := range rows {
		want(mr.AuthorID)
		want(mr.MergedByID)
		want(mr.ClosedByID)
		want(mr.MergeUserID)
		for _, a := range mr.Edges.AssigneeLinks {
			want(&a.UserID)
		}
		for _, r := range mr.Edges.ReviewerLinks {
			want(&r.UserID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	users, err := c.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return err
	}
	byID := make(map[int]*ent.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	of := func(id *int) *ent.User {
		if id == nil {
			return nil
		}
		return byID[*id]
	}
	for _, mr := range rows {
		mr.Edges.Author, mr.Edges.MergedBy = of(mr.AuthorID), of(mr.MergedByID)
		mr.Edges.ClosedBy, mr.Edges.MergeUser = of(mr.ClosedByID), of(mr.MergeUserID)
		for _, a := range mr.Edges.AssigneeLinks {
			a.Edges.User = byID[a.UserID]
		}
		for _, r := range mr.Edges.ReviewerLinks {
			r.Edges.User = byID[r.UserID]
		}
	}
	return nil
}
