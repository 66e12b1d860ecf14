package graph

import (
	"context"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/authz"
	"anvil/internal/filter"
	"anvil/internal/service/mergerequests"
	"anvil/internal/service/projects"

	"entgo.io/contrib/entgql"
)

// mergeRequestArgs are the filter arguments of project.mergeRequests, group.mergeRequests and
// the user's merge request connections, read from the field's arguments by their GraphQL names
// (see fieldArgs); each connection declares a subset.
type mergeRequestArgs struct {
	IIDs                []string                                  `arg:"iids"`
	SourceBranches      []string                                  `arg:"sourceBranches"`
	TargetBranches      []string                                  `arg:"targetBranches"`
	State               *model.MergeRequestState                  `arg:"state"`
	Draft               *bool                                     `arg:"draft"`
	Approved            *bool                                     `arg:"approved"`
	CreatedAfter        *time.Time                                `arg:"createdAfter"`
	CreatedBefore       *time.Time                                `arg:"createdBefore"`
	DeployedAfter       *time.Time                                `arg:"deployedAfter"`
	DeployedBefore      *time.Time                                `arg:"deployedBefore"`
	UpdatedAfter        *time.Time                                `arg:"updatedAfter"`
	UpdatedBefore       *time.Time                                `arg:"updatedBefore"`
	LabelName           []*string                                 `arg:"labelName"`
	Labels              []string                                  `arg:"labels"`
	MergedAfter         *time.Time                                `arg:"mergedAfter"`
	MergedBefore        *time.Time                                `arg:"mergedBefore"`
	MergedBy            *string                                   `arg:"mergedBy"`
	ApprovedBy          []string                                  `arg:"approvedBy"`
	Approver            []string                                  `arg:"approver"`
	MyReactionEmoji     *string                                   `arg:"myReactionEmoji"`
	MilestoneTitle      *string                                   `arg:"milestoneTitle"`
	MilestoneWildcardID *model.MilestoneWildcardID                `arg:"milestoneWildcardId"`
	AssigneeUsername    *string                                   `arg:"assigneeUsername"`
	AssigneeWildcardID  *model.AssigneeWildcardID                 `arg:"assigneeWildcardId"`
	AuthorUsername      *string                                   `arg:"authorUsername"`
	ReviewerUsername    *string                                   `arg:"reviewerUsername"`
	ReviewerWildcardID  *model.ReviewerWildcardID                 `arg:"reviewerWildcardId"`
	Search              *string                                   `arg:"search"`
	In                  []model.IssuableSearchableField           `arg:"in"`
	Not                 *model.MergeRequestsResolverNegatedParams `arg:"not"`
	IncludeArchived     *bool                                     `arg:"includeArchived"`
}

// mergeRequestParams maps the filter arguments of the field being resolved onto the finder's
// parameters, as REST's binder maps the query string.
func mergeRequestParams(ctx context.Context) (mergerequests.ListParams, error) {
	var a mergeRequestArgs
	fieldArgs(ctx, &a)
	p := mergerequests.ListParams{Search: str(a.Search), Draft: a.Draft, Approved: a.Approved, IncludeArchived: flag(a.IncludeArchived)}
	for _, pair := range []struct {
		a    string
		hasA bool
		b    string
		hasB bool
	}{
		{"milestoneTitle", a.MilestoneTitle != nil, "milestoneWildcardId", a.MilestoneWildcardID != nil},
		{"assigneeUsername", a.AssigneeUsername != nil, "assigneeWildcardId", a.AssigneeWildcardID != nil},
		{"reviewerUsername", a.ReviewerUsername != nil, "reviewerWildcardId", a.ReviewerWildcardID != nil},
	} {
		if err := onlyOne(pair.a, pair.hasA, pair.b, pair.hasB); err != nil {
			return p, err
		}
	}
	if a.State != nil && *a.State != model.MergeRequestStateAll {
		p.State = string(*a.State)
	}
	if a.IIDs != nil {
		p.IIDs.Is = intValues(a.IIDs)
	}
	if a.SourceBranches != nil {
		p.SourceBranch.Is = filter.Of(a.SourceBranches...)
	}
	if a.TargetBranches != nil {
		p.TargetBranch.Is = filter.Of(a.TargetBranches...)
	}
	labels := values(a.LabelName)
	if a.Labels != nil {
		labels = append(labels, a.Labels...)
	}
	p.Labels.Is, _ = filter.Parse(labels, filter.Text, filter.None, filter.Any)
	if a.MilestoneTitle != nil {
		p.Milestone.Is, _ = filter.Parse([]string{*a.MilestoneTitle}, filter.Text, filter.None, filter.Any)
	}
	if a.MilestoneWildcardID != nil {
		p.Milestone.Is = filter.Wild[string](filter.Wildcard(strings.ToLower(string(*a.MilestoneWildcardID))))
	}
	if a.AuthorUsername != nil {
		p.AuthorUsername.Is = filter.Of(*a.AuthorUsername)
	}
	if a.AssigneeUsername != nil {
		p.AssigneeUsername.Is = filter.Of(*a.AssigneeUsername)
	}
	if a.AssigneeWildcardID != nil {
		p.AssigneeID.Is = filter.Wild[int](filter.Wildcard(strings.ToLower(string(*a.AssigneeWildcardID))))
	}
	if a.ReviewerUsername != nil {
		p.ReviewerUsername.Is = filter.Of(*a.ReviewerUsername)
	}
	if a.ReviewerWildcardID != nil {
		p.ReviewerID.Is = filter.Wild[int](filter.Wildcard(strings.ToLower(string(*a.ReviewerWildcardID))))
	}
	if a.MergedBy != nil {
		p.MergeUserUsername.Is = filter.Of(*a.MergedBy)
	}
	if a.ApprovedBy != nil {
		p.ApprovedByUsernames.Is, _ = filter.Parse(a.ApprovedBy, filter.Text, filter.None, filter.Any)
	}
	if a.Approver != nil {
		p.ApproverUsernames.Is, _ = filter.Parse(a.Approver, filter.Text, filter.None, filter.Any)
	}
	if a.MyReactionEmoji != nil {
		p.MyReactionEmoji.Is, _ = filter.Parse([]string{*a.MyReactionEmoji}, filter.Text, filter.None, filter.Any)
	}
	for _, f := range a.In {
		p.In = append(p.In, strings.ToLower(string(f)))
	}
	p.Created = filter.Range{After: a.CreatedAfter, Before: a.CreatedBefore}
	p.Updated = filter.Range{After: a.UpdatedAfter, Before: a.UpdatedBefore}
	p.Merged = filter.Range{After: a.MergedAfter, Before: a.MergedBefore}
	p.Deployed = filter.Range{After: a.DeployedAfter, Before: a.DeployedBefore}
	negateMergeRequestParams(&p, a.Not)
	return p, nil
}

// negateMergeRequestParams fills the not[...] side of the filters from not: {...}.
func negateMergeRequestParams(p *mergerequests.ListParams, not *model.MergeRequestsResolverNegatedParams) {
	if not == nil {
		return
	}
	if labels := append(append([]string{}, not.Labels...), not.LabelName...); not.Labels != nil || not.LabelName != nil {
		p.Labels.Not = filter.Of(labels...)
	}
	if not.MilestoneTitle != nil {
		p.Milestone.Not = filter.Of(*not.MilestoneTitle)
	}
	if not.MilestoneWildcardID != nil {
		p.Milestone.Not = filter.Wild[string](filter.Wildcard(strings.ToLower(string(*not.MilestoneWildcardID))))
	}
	if not.SourceBranches != nil {
		p.SourceBranch.Not = filter.Of(not.SourceBranches...)
	}
	if not.TargetBranches != nil {
		p.TargetBranch.Not = filter.Of(not.TargetBranches...)
	}
	if not.AssigneeUsername != nil {
		p.AssigneeUsername.Not = filter.Of(*not.AssigneeUsername)
	}
	if not.AuthorUsername != nil {
		p.AuthorUsername.Not = filter.Of(*not.AuthorUsername)
	}
	if not.ReviewerUsername != nil {
		p.ReviewerUsername.Not = filter.Of(*not.ReviewerUsername)
	}
	if not.MyReactionEmoji != nil {
		p.MyReactionEmoji.Not = filter.Of(*not.MyReactionEmoji)
	}
	if not.ApprovedBy != nil {
		p.ApprovedByUsernames.Not = filter.Of(not.ApprovedBy...)
	}
}

// mergeRequestOrder is MergeRequestSort: created (the default, created_desc), updated or title.
func mergeRequestOrder(sort *model.MergeRequestSort) *ent.MergeRequestOrder {
	value := "created_desc"
	if sort != nil {
		value = sort.Normalized()
	}
	field, dir, _ := sortParts(value)
	switch field {
	case "updated":
		return &ent.MergeRequestOrder{Field: ent.MergeRequestOrderFieldUpdatedAt, Direction: dir}
	case "title":
		return &ent.MergeRequestOrder{Field: ent.MergeRequestOrderFieldTitle, Direction: dir}
	}
	return &ent.MergeRequestOrder{Field: ent.MergeRequestOrderFieldCreatedAt, Direction: dir}
}

// mergeRequestConnection pages the merge requests of parent matching the field's filter
// arguments (adjusted by scope, for the user's connections), each with the edges its fields
// read.
func (r *Resolver) mergeRequestConnection(ctx context.Context, parent mergerequests.Parent, scope func(*mergerequests.ListParams), sort *model.MergeRequestSort, after, before *entgql.Cursor[int], first, last *int) (*ent.MergeRequestConnection, error) {
	p, err := mergeRequestParams(ctx)
	if err != nil {
		return nil, err
	}
	if scope != nil {
		scope(&p)
	}
	q, err := r.svc.MergeRequests.Query(ctx, actor(ctx), parent, p)
	if err != nil {
		return orNull[ent.MergeRequestConnection](nil, err)
	}
	order := mergeRequestOrder(sort)
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return mergerequests.Load(q).Paginate(connection(ctx), after, first, before, last, ent.WithMergeRequestOrder(order))
}

// userMergeRequests pages the merge requests of the user's connections (authored, assigned,
// review requested): every readable project's, or one project's (projectPath or projectId).
func (r *Resolver) userMergeRequests(ctx context.Context, projectPath, projectID *string, scope func(*mergerequests.ListParams), sort *model.MergeRequestSort, after, before *entgql.Cursor[int], first, last *int) (*ent.MergeRequestConnection, error) {
	if err := onlyOne("projectPath", projectPath != nil, "projectId", projectID != nil); err != nil {
		return nil, err
	}
	parent := mergerequests.Parent{ProjectRef: str(projectPath)}
	if projectID != nil {
		id, err := parseGIDOf(*projectID, gidProject)
		if err != nil {
			return nil, err
		}
		parent.ProjectRef = strconv.Itoa(id)
	}
	all := func(p *mergerequests.ListParams) {
		p.Scope = "all"
		scope(p)
	}
	return r.mergeRequestConnection(ctx, parent, all, sort, after, before, first, last)
}

// mergeRequestPath is the merge request's web path, /<project>/-/merge_requests/<iid>.
func mergeRequestPath(mr *ent.MergeRequest) string {
	return "/" + projects.FullPath(mr.Edges.Project) + "/-/merge_requests/" + strconv.Itoa(mr.Iid)
}

// mergeRequestNodes are a page's merge requests.
func mergeRequestNodes(c *ent.MergeRequestConnection) []*ent.MergeRequest {
	out := make([]*ent.MergeRequest, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}

// userConnection pages users already loaded with their parent (a merge request's assignees or
// reviewers), in the order given.
func userConnection(all []*ent.User, after, before *entgql.Cursor[int], first, last *int) *ent.UserConnection {
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(u *ent.User) int { return u.ID }, after, before, first, last)
	c := &ent.UserConnection{PageInfo: info, TotalCount: len(all), Edges: make([]*ent.UserEdge, len(nodes))}
	for i, u := range nodes {
		c.Edges[i] = &ent.UserEdge{Node: u, Cursor: cursors[i]}
	}
	return c
}

// labelConnection pages labels already loaded with their parent, in the order given.
func labelConnection(all []*ent.Label, after, before *entgql.Cursor[int], first, last *int) *ent.LabelConnection {
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(l *ent.Label) int { return l.ID }, after, before, first, last)
	c := &ent.LabelConnection{PageInfo: info, TotalCount: len(all), Edges: make([]*ent.LabelEdge, len(nodes))}
	for i, l := range nodes {
		c.Edges[i] = &ent.LabelEdge{Node: l, Cursor: cursors[i]}
	}
	return c
}

// mergeRequestAssignees are the merge request's assignees, in assignment order.
func mergeRequestAssignees(mr *ent.MergeRequest) []*ent.User {
	out := make([]*ent.User, 0, len(mr.Edges.AssigneeLinks))
	for _, l := range mr.Edges.AssigneeLinks {
		if l.Edges.User != nil {
			out = append(out, l.Edges.User)
		}
	}
	return out
}

// mergeRequestReviewers are the merge request's reviewers, in request order.
func mergeRequestReviewers(mr *ent.MergeRequest) []*ent.User {
	out := make([]*ent.User, 0, len(mr.Edges.ReviewerLinks))
	for _, l := range mr.Edges.ReviewerLinks {
		if l.Edges.User != nil {
			out = append(out, l.Edges.User)
		}
	}
	return out
}

// mergeRequestLabels are the merge request's labels, in title order.
func mergeRequestLabels(mr *ent.MergeRequest) []*ent.Label {
	out := make([]*ent.Label, 0, len(mr.Edges.LabelLinks))
	for _, l := range mr.Edges.LabelLinks {
		if l.Edges.Label != nil {
			out = append(out, l.Edges.Label)
		}
	}
	return out
}

// mergeRequestMilestone is the merge request's milestone; a milestone of its own project gets
// the project loaded with the merge request, so its web path costs no query.
func mergeRequestMilestone(mr *ent.MergeRequest) *ent.Milestone {
	m := mr.Edges.Milestone
	if m != nil && m.Edges.Project == nil && m.ProjectID != nil && *m.ProjectID == mr.ProjectID {
		m.Edges.Project = mr.Edges.Project
	}
	return m
}

// upperEnum is a status string as the enum's value (can_be_merged → CAN_BE_MERGED); nil for
// an empty one.
func upperEnum[T ~string](s string) *T {
	if s == "" {
		return nil
	}
	v := T(strings.ToUpper(s))
	return &v
}

// mergeRequestResult is the payload side of a merge request mutation: the refused change's
// messages, or the merge request as project.mergeRequest(iid:) now shows it.
func (r *Resolver) mergeRequestResult(ctx context.Context, mr *ent.MergeRequest, err error) (*ent.MergeRequest, []string, error) {
	msgs, err := payloadErrors(err)
	if err != nil || mr == nil {
		return nil, msgs, err
	}
	mr, _, err = r.svc.MergeRequests.Find(ctx, actor(ctx), strconv.Itoa(mr.ProjectID), strconv.Itoa(mr.Iid), authz.ReadMergeRequest)
	mr, err = orNull(mr, err)
	return mr, msgs, err
}

// mergeability runs the live mergeability check on a copy of obj: the check updates the merge
// request it is given in place, and gqlgen resolves mergeable, conflicts, shouldBeRebased and
// the stored fields of one merge request side by side.
func (r *mergeRequestResolver) mergeability(ctx context.Context, obj *ent.MergeRequest) (mergerequests.Mergeability, error) {
	mr := *obj
	return r.svc.MergeRequests.CheckMergeability(ctx, &mr)
}
