package graph

import (
	"context"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/filter"
	"anvil/internal/service/issues"
	"anvil/internal/service/projects"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql"
)

// issueArgs are the filter arguments project.issues and group.issues share, read from the
// field's arguments by their GraphQL names (the resolvers' positional parameters would repeat
// thirty names twice).
type issueArgs struct {
	IID                 *string                         `arg:"iid"`
	IIDs                []string                        `arg:"iids"`
	State               *model.IssuableState            `arg:"state"`
	LabelName           []*string                       `arg:"labelName"`
	MilestoneTitle      []*string                       `arg:"milestoneTitle"`
	MilestoneWildcardID *model.MilestoneWildcardID      `arg:"milestoneWildcardId"`
	AuthorUsername      *string                         `arg:"authorUsername"`
	AssigneeUsernames   []string                        `arg:"assigneeUsernames"`
	AssigneeUsername    *string                         `arg:"assigneeUsername"`
	AssigneeID          *string                         `arg:"assigneeId"`
	AssigneeWildcardID  *model.AssigneeWildcardID       `arg:"assigneeWildcardId"`
	Search              *string                         `arg:"search"`
	In                  []model.IssuableSearchableField `arg:"in"`
	Types               []model.IssueType               `arg:"types"`
	Confidential        *bool                           `arg:"confidential"`
	CreatedBefore       *time.Time                      `arg:"createdBefore"`
	CreatedAfter        *time.Time                      `arg:"createdAfter"`
	UpdatedBefore       *time.Time                      `arg:"updatedBefore"`
	UpdatedAfter        *time.Time                      `arg:"updatedAfter"`
	ClosedBefore        *time.Time                      `arg:"closedBefore"`
	ClosedAfter         *time.Time                      `arg:"closedAfter"`
	DueBefore           *time.Time                      `arg:"dueBefore"`
	DueAfter            *time.Time                      `arg:"dueAfter"`
	MyReactionEmoji     *string                         `arg:"myReactionEmoji"`
	Or                  *model.UnionedIssueFilterInput  `arg:"or"`
	Not                 *model.NegatedIssueFilterInput  `arg:"not"`
	IncludeArchived     *bool                           `arg:"includeArchived"`
}

// fieldArgs copies the current field's arguments into the tagged fields of dst (a pointer to
// a struct); gqlgen has already coerced each argument to the field's Go type.
func fieldArgs(ctx context.Context, dst any) {
	args := graphql.GetFieldContext(ctx).Args
	v := reflect.ValueOf(dst).Elem()
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Tag.Get("arg")
		if a, ok := args[name]; ok && a != nil {
			v.Field(i).Set(reflect.ValueOf(a))
		}
	}
}

// issueParams maps the filter arguments of the field being resolved onto the finder's
// parameters, as REST's binder maps the query string.
func issueParams(ctx context.Context) (issues.ListParams, error) {
	var a issueArgs
	fieldArgs(ctx, &a)
	p := issues.ListParams{Search: str(a.Search), Confidential: a.Confidential, IncludeArchived: flag(a.IncludeArchived)}
	if err := onlyOne("milestoneTitle", a.MilestoneTitle != nil, "milestoneWildcardId", a.MilestoneWildcardID != nil); err != nil {
		return p, err
	}
	if err := onlyOne("assigneeUsernames", a.AssigneeUsernames != nil || a.AssigneeUsername != nil, "assigneeWildcardId", a.AssigneeWildcardID != nil || a.AssigneeID != nil); err != nil {
		return p, err
	}
	if a.State != nil {
		switch *a.State {
		case model.IssuableStateOpened, model.IssuableStateClosed:
			p.State = string(*a.State)
		case model.IssuableStateLocked: // issues are never locked
			p.IIDs.Is = filter.Of[int]()
		}
	}
	iids := a.IIDs
	if a.IID != nil {
		iids = append(iids, *a.IID)
	}
	if iids != nil {
		p.IIDs.Is = intValues(iids)
	}
	p.Labels.Is, _ = filter.Parse(values(a.LabelName), filter.Text, filter.None, filter.Any)
	p.Milestone.Is, _ = filter.Parse(values(a.MilestoneTitle), filter.Text, filter.None, filter.Any)
	if a.MilestoneWildcardID != nil {
		p.Milestone.Is = filter.Wild[string](filter.Wildcard(strings.ToLower(string(*a.MilestoneWildcardID))))
	}
	if a.AuthorUsername != nil {
		p.AuthorUsername.Is = filter.Of(*a.AuthorUsername)
	}
	if a.AssigneeUsername != nil {
		a.AssigneeUsernames = append(a.AssigneeUsernames, *a.AssigneeUsername)
	}
	if a.AssigneeUsernames != nil {
		p.AssigneeUsername.Is = filter.Of(a.AssigneeUsernames...)
	}
	if a.AssigneeID != nil {
		p.AssigneeID.Is = assigneeID(*a.AssigneeID)
	}
	if a.AssigneeWildcardID != nil {
		p.AssigneeID.Is = filter.Wild[int](filter.Wildcard(strings.ToLower(string(*a.AssigneeWildcardID))))
	}
	for _, f := range a.In {
		p.In = append(p.In, strings.ToLower(string(f)))
	}
	if a.Types != nil {
		p.IssueType.Is = issueTypes(a.Types)
	}
	p.Created = filter.Range{After: a.CreatedAfter, Before: a.CreatedBefore}
	p.Updated = filter.Range{After: a.UpdatedAfter, Before: a.UpdatedBefore}
	p.Closed = filter.Range{After: a.ClosedAfter, Before: a.ClosedBefore}
	p.Due = filter.Range{After: a.DueAfter, Before: a.DueBefore}
	if a.MyReactionEmoji != nil {
		p.MyReactionEmoji.Is, _ = filter.Parse([]string{*a.MyReactionEmoji}, filter.Text, filter.None, filter.Any)
	}
	if a.Or != nil {
		p.Or = issues.OrParams{AssigneeUsernames: a.Or.AssigneeUsernames, AuthorUsernames: a.Or.AuthorUsernames,
			LabelNames: a.Or.LabelNames}
	}
	negateIssueParams(&p, a.Not)
	return p, nil
}

// negateIssueParams fills the not[...] side of the filters from not: {...}.
func negateIssueParams(p *issues.ListParams, not *model.NegatedIssueFilterInput) {
	if not == nil {
		return
	}
	if not.Iids != nil {
		p.IIDs.Not = intValues(not.Iids)
	}
	if not.LabelName != nil {
		p.Labels.Not = filter.Of(not.LabelName...)
	}
	if not.MilestoneTitle != nil {
		p.Milestone.Not = filter.Of(not.MilestoneTitle...)
	}
	if not.MilestoneWildcardID != nil {
		p.Milestone.Not = filter.Wild[string](filter.Wildcard(strings.ToLower(string(*not.MilestoneWildcardID))))
	}
	if not.AuthorUsername != nil {
		p.AuthorUsername.Not = filter.Of(not.AuthorUsername...)
	}
	if not.AssigneeUsernames != nil {
		p.AssigneeUsername.Not = filter.Of(not.AssigneeUsernames...)
	}
	if not.AssigneeID != nil {
		p.AssigneeID.Not = assigneeID(*not.AssigneeID)
	}
	if not.Types != nil {
		p.IssueType.Not = issueTypes(not.Types)
	}
	if not.MyReactionEmoji != nil {
		p.MyReactionEmoji.Not = filter.Of(*not.MyReactionEmoji)
	}
}

// onlyOne is GitLab's refusal of two arguments that say the same thing two ways.
func onlyOne(a string, hasA bool, b string, hasB bool) error {
	if hasA && hasB {
		return badInput("only one of [%s, %s] arguments is allowed at the same time.", a, b)
	}
	return nil
}

// values drops the nulls of a [String] argument; nil stays nil (not given).
func values(in []*string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// intValues are iids given as strings; one that is not a number matches no issue.
func intValues(in []string) filter.Value[int] {
	out := make([]int, 0, len(in))
	for _, s := range in {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			n = -1
		}
		out = append(out, n)
	}
	return filter.Of(out...)
}

// assigneeID is assigneeId: a user id, or the wildcards NONE and ANY in any case.
func assigneeID(s string) filter.Value[int] {
	v, err := filter.Parse([]string{s}, strconv.Atoi, filter.None, filter.Any)
	if err != nil {
		return filter.Of(-1)
	}
	return v
}

// issueTypes are IssueType values as the finder's issue_type values (ISSUE → issue).
func issueTypes(ts []model.IssueType) filter.Value[string] {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = strings.ToLower(string(t))
	}
	return filter.Of(out...)
}

// serviceOrders are the IssueSort fields the issue service orders (as REST's order_by), which
// the cursor pager cannot: nullable columns and computed values.
var serviceOrders = map[string]string{"due_date": "due_date", "popularity": "popularity", "priority": "priority",
	"label_priority": "label_priority", "milestone_due": "milestone_due", "relative_position": "relative_position",
	"weight": "weight"}

// serviceIssueOrder is the issue service's order for sort, when the service orders it.
func serviceIssueOrder(sort *model.IssueSort) (issues.Order, bool) {
	if sort == nil {
		return issues.Order{}, false
	}
	field, dir, _ := sortParts(sort.Normalized())
	by, ok := serviceOrders[field]
	return issues.Order{By: by, Sort: strings.ToLower(string(dir))}, ok
}

// issueOrder is IssueSort: created (the default, created_desc), updated or title.
func issueOrder(sort *model.IssueSort) *ent.IssueOrder {
	value := "created_desc"
	if sort != nil {
		value = sort.Normalized()
	}
	field, dir, _ := sortParts(value)
	switch field {
	case "updated":
		return &ent.IssueOrder{Field: ent.IssueOrderFieldUpdatedAt, Direction: dir}
	case "title":
		return &ent.IssueOrder{Field: ent.IssueOrderFieldTitle, Direction: dir}
	}
	return &ent.IssueOrder{Field: ent.IssueOrderFieldCreatedAt, Direction: dir}
}

// issueConnection pages the issues of parent matching the field's filter arguments, each
// with the edges its fields read (one query per edge per page).
func (r *Resolver) issueConnection(ctx context.Context, parent issues.Parent, sort *model.IssueSort, after, before *entgql.Cursor[int], first, last *int) (*ent.IssueConnection, error) {
	p, err := issueParams(ctx)
	if err != nil {
		return nil, err
	}
	q, err := r.svc.Issues.Query(ctx, actor(ctx), parent, p)
	if err != nil {
		return orNull[ent.IssueConnection](nil, err)
	}
	if o, ok := serviceIssueOrder(sort); ok {
		return r.offsetIssuePage(ctx, q, o, after, before, first, last)
	}
	order := issueOrder(sort)
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return issues.Load(q).Paginate(connection(ctx), after, first, before, last, ent.WithIssueOrder(order))
}

// issuePath is the issue's web path, /<project>/-/issues/<iid>.
func issuePath(is *ent.Issue) string {
	return "/" + projects.FullPath(is.Edges.Project) + "/-/issues/" + strconv.Itoa(is.Iid)
}

// issueNodes are a page's issues.
func issueNodes(c *ent.IssueConnection) []*ent.Issue {
	out := make([]*ent.Issue, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}

// slicePage pages a short list already loaded with its parent (an issue's assignees or
// labels) with cursors of the same shape as the database connections' (the node's id), so
// clients page them alike.
func slicePage[T any](nodes []T, id func(T) int, after, before *entgql.Cursor[int], first, last *int) ([]T, []entgql.Cursor[int], entgql.PageInfo[int]) {
	lo, hi := 0, len(nodes)
	for i, n := range nodes {
		if after != nil && id(n) == after.ID {
			lo = i + 1
		}
		if before != nil && id(n) == before.ID {
			hi = i
		}
	}
	if hi < lo {
		hi = lo
	}
	var info entgql.PageInfo[int]
	if first != nil && *first >= 0 && hi-lo > *first {
		hi = lo + *first
		info.HasNextPage = true
	}
	if last != nil && *last >= 0 && hi-lo > *last {
		lo = hi - *last
		info.HasPreviousPage = true
	}
	page := nodes[lo:hi]
	cursors := make([]entgql.Cursor[int], len(page))
	for i, n := range page {
		cursors[i] = entgql.Cursor[int]{ID: id(n)}
	}
	if len(cursors) > 0 {
		info.StartCursor, info.EndCursor = &cursors[0], &cursors[len(cursors)-1]
	}
	return page, cursors, info
}

// assigneeConnection is Issue.assignees, in assignment order.
func assigneeConnection(is *ent.Issue, after, before *entgql.Cursor[int], first, last *int) *ent.UserConnection {
	all := make([]*ent.User, 0, len(is.Edges.AssigneeLinks))
	for _, l := range is.Edges.AssigneeLinks {
		if l.Edges.User != nil {
			all = append(all, l.Edges.User)
		}
	}
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(u *ent.User) int { return u.ID }, after, before, first, last)
	c := &ent.UserConnection{PageInfo: info, TotalCount: len(all), Edges: make([]*ent.UserEdge, len(nodes))}
	for i, u := range nodes {
		c.Edges[i] = &ent.UserEdge{Node: u, Cursor: cursors[i]}
	}
	return c
}

// issueLabelConnection is Issue.labels, in title order.
func issueLabelConnection(is *ent.Issue, after, before *entgql.Cursor[int], first, last *int) *ent.LabelConnection {
	all := make([]*ent.Label, 0, len(is.Edges.LabelLinks))
	for _, l := range is.Edges.LabelLinks {
		if l.Edges.Label != nil {
			all = append(all, l.Edges.Label)
		}
	}
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(l *ent.Label) int { return l.ID }, after, before, first, last)
	c := &ent.LabelConnection{PageInfo: info, TotalCount: len(all), Edges: make([]*ent.LabelEdge, len(nodes))}
	for i, l := range nodes {
		c.Edges[i] = &ent.LabelEdge{Node: l, Cursor: cursors[i]}
	}
	return c
}

// issueMilestone is the issue's milestone; a milestone of the issue's own project gets the
// project loaded with the issue, so its web path costs no query.
func issueMilestone(is *ent.Issue) *ent.Milestone {
	m := is.Edges.Milestone
	if m != nil && m.Edges.Project == nil && m.ProjectID != nil && *m.ProjectID == is.ProjectID {
		m.Edges.Project = is.Edges.Project
	}
	return m
}

// offsetIssuePage pages q in the service's order o. Its cursors hold the node's position in
// that order (an order over computed values has no column a keyset cursor could hold): after
// and before are positions, so a page may shift when issues are added meanwhile, as GitLab's
// offset-paginated sorts do.
func (r *Resolver) offsetIssuePage(ctx context.Context, q *ent.IssueQuery, o issues.Order, after, before *entgql.Cursor[int], first, last *int) (*ent.IssueConnection, error) {
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	lo, hi := 0, total
	if after != nil {
		n, ok := cursorPosition(after)
		if !ok {
			return nil, errInvalidCursor()
		}
		lo = n + 1
	}
	if before != nil {
		n, ok := cursorPosition(before)
		if !ok {
			return nil, errInvalidCursor()
		}
		hi = min(n, total)
	}
	if hi < lo {
		hi = lo
	}
	first, last = page(first, last)
	var info entgql.PageInfo[int]
	if first != nil && *first >= 0 && hi-lo > *first {
		hi, info.HasNextPage = lo+*first, true
	}
	if last != nil && *last >= 0 && hi-lo > *last {
		lo, info.HasPreviousPage = hi-*last, true
	}
	rows, err := r.svc.Issues.Page(ctx, q, o, lo, hi-lo)
	if err != nil {
		return nil, err
	}
	c := &ent.IssueConnection{PageInfo: info, TotalCount: total, Edges: make([]*ent.IssueEdge, len(rows))}
	for i, is := range rows {
		c.Edges[i] = &ent.IssueEdge{Node: is, Cursor: entgql.Cursor[int]{ID: is.ID, Value: lo + i}}
	}
	if len(c.Edges) > 0 {
		c.PageInfo.StartCursor, c.PageInfo.EndCursor = &c.Edges[0].Cursor, &c.Edges[len(c.Edges)-1].Cursor
	}
	return c, nil
}

// cursorPosition reads the position an offset cursor holds (decoded as some integer type).
func cursorPosition(c *entgql.Cursor[int]) (int, bool) {
	v := reflect.ValueOf(c.Value)
	switch {
	case !v.IsValid():
		return 0, false
	case v.CanInt() && v.Int() >= 0:
		return int(v.Int()), true
	case v.CanUint() && v.Uint() <= math.MaxInt32:
		return int(v.Uint()), true
	}
	return 0, false
}
