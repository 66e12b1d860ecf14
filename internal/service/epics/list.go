package epics

import (
	"context"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/ent/epiclabel"
	"anvil/ent/label"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/filter"
	"anvil/internal/pagination"
	"anvil/internal/service/labels"

	"entgo.io/ent/dialect/sql"
)

// ListParams are the filters of GET /groups/:id/epics (GitLab's EpicsFinder).
type ListParams struct {
	// State (state): opened, closed or all ("" = all).
	State string
	// AuthorID (author_id, not[author_id]) and AuthorUsername (author_username, not[...]).
	AuthorID       filter.Field[int]
	AuthorUsername filter.Field[string]
	// Labels (labels, not[labels]): label titles, all of which an epic must have; None/Any.
	Labels filter.Field[string]
	// Search (search) matches the title or the description.
	Search string
	// Confidential (confidential): only confidential or only public epics.
	Confidential *bool
	// Created and Updated are created_after/before and updated_after/before.
	Created, Updated filter.Range
	// IncludeAncestorGroups (include_ancestor_groups) adds the ancestor groups' epics;
	// ExcludeDescendantGroups is include_descendant_groups=false (GitLab's default includes them).
	IncludeAncestorGroups   bool
	ExcludeDescendantGroups bool
	// Parent restricts the list to the children of this epic (the epic tree).
	Parent *int
	// IIDs (GraphQL's iid and iids) keeps the epics of these iids.
	IIDs []int
	// MyReactionEmoji (my_reaction_emoji, not[my_reaction_emoji]): the signed-in caller's
	// reactions by emoji name; None, Any. Ignored for anonymous callers, as GitLab does.
	MyReactionEmoji filter.Field[string]
}

// Order is the list's order_by (created_at, updated_at, title) and sort (asc, desc).
type Order struct {
	By   string
	Sort string
}

// OrderColumns are the order_by values served.
var OrderColumns = []string{"created_at", "updated_at", "title"}

// Result is a page of epics with their dates, presented from the request's group.
type Result struct {
	pagination.Result[*ent.Epic]
	Group *ent.Namespace
	Dates map[int]Dates
}

// List returns the epics of group ref (and its subgroups) the actor may read that match p.
func (s *Service) List(ctx context.Context, actor *authz.Actor, ref string, p ListParams, o Order, page pagination.Offset) (Result, error) {
	res := Result{Result: pagination.Result[*ent.Epic]{Page: page}}
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return res, err
	}
	res.Group = g.Namespace
	q, err := s.query(ctx, actor, g, p)
	if err != nil {
		return res, err
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	rows, err := Load(order(q, o)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	res.Dates, err = s.dates(ctx, rows)
	return res, err
}

// Query selects the epics of group ref's hierarchy the actor may read that match p, unordered
// (GraphQL paginates it), and the group (references are relative to it); Dates computes their
// dates.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, ref string, p ListParams) (*ent.EpicQuery, *ent.Namespace, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return nil, nil, err
	}
	q, err := s.query(ctx, actor, g, p)
	return q, g.Namespace, err
}

// Dates computes the start and due dates of epics (fixed or inherited) in one read.
func (s *Service) Dates(ctx context.Context, es []*ent.Epic) (map[int]Dates, error) {
	return s.dates(ctx, es)
}

// query selects the epics of g's hierarchy the actor may read and that match p: the groups
// (g, its readable descendants unless excluded, its ancestors when asked) the actor may read,
// and confidential epics only in groups where the actor reads them.
func (s *Service) query(ctx context.Context, actor *authz.Actor, g Group, p ListParams) (*ent.EpicQuery, error) {
	c := db.ClientFrom(ctx, s.client)
	var scope *authz.Scope
	if !actor.IsAnonymous() {
		var err error
		if scope, err = s.policy.Scope(ctx, actor, authz.Guest); err != nil {
			return nil, err
		}
	}
	groups := []predicate.Namespace{namespace.ID(g.ID)}
	if !p.ExcludeDescendantGroups {
		groups = append(groups, namespace.And(authz.Descendants(g.FullPath), authz.VisibleGroupsIn(actor, scope)))
	}
	if p.IncludeAncestorGroups {
		ids, err := labels.GroupChain(ctx, c, g.FullPath)
		if err != nil {
			return nil, err
		}
		groups = append(groups, namespace.And(namespace.IDIn(ids...), authz.VisibleGroupsIn(actor, scope)))
	}
	q := c.Epic.Query().Where(epic.HasGroupWith(namespace.Or(groups...)))
	if !actor.IsAdmin() {
		q = q.Where(epic.Or(epic.Confidential(false),
			epic.HasGroupWith(authz.GroupsWithLevelIn(actor, scope, authz.Planner))))
	}
	if !actor.IsAnonymous() {
		q = q.Where(filter.Predicates(p.MyReactionEmoji, myReaction(actor))...)
	}
	return q.Where(filters(p)...), nil
}

// filters turns the list parameters into predicates.
func filters(p ListParams) []predicate.Epic {
	var out []predicate.Epic
	if p.IIDs != nil {
		out = append(out, epic.IidIn(p.IIDs...))
	}
	switch p.State {
	case "opened":
		out = append(out, epic.StateEQ(epic.StateOpened))
	case "closed":
		out = append(out, epic.StateEQ(epic.StateClosed))
	}
	out = append(out, filter.Predicates(p.AuthorID, filter.Column[int, predicate.Epic](epic.FieldAuthorID))...)
	out = append(out, filter.Predicates(p.AuthorUsername, authorUsernames())...)
	out = append(out, filter.Predicates(p.Labels, labelRelation())...)
	if p.Search != "" {
		out = append(out, epic.Or(db.ContainsFold(epic.FieldTitle, p.Search), db.ContainsFold(epic.FieldDescription, p.Search)))
	}
	if p.Confidential != nil {
		out = append(out, epic.Confidential(*p.Confidential))
	}
	for _, r := range p.Created.Predicates(epic.FieldCreatedAt) {
		out = append(out, r)
	}
	for _, r := range p.Updated.Predicates(epic.FieldUpdatedAt) {
		out = append(out, r)
	}
	if p.Parent != nil {
		out = append(out, epic.ParentID(*p.Parent))
	}
	return out
}

// authorUsernames matches epics by their author's username.
func authorUsernames() filter.Relation[string, predicate.Epic] {
	return filter.Relation[string, predicate.Epic]{
		In: func(names []string) predicate.Epic { return epic.HasAuthorWith(user.UsernameIn(names...)) },
	}
}

// labelRelation matches epics by label title through epic_labels.
func labelRelation() filter.Relation[string, predicate.Epic] {
	return filter.Relation[string, predicate.Epic]{
		Mode: filter.AllOf,
		In: func(titles []string) predicate.Epic {
			return epic.HasLabelLinksWith(epiclabel.HasLabelWith(label.TitleIn(titles...)))
		},
		Empty: func() predicate.Epic { return epic.Not(epic.HasLabelLinks()) },
	}
}

// order sorts by o (created_at desc by default), then by id in the same direction.
func order(q *ent.EpicQuery, o Order) *ent.EpicQuery {
	col := epic.FieldCreatedAt
	switch o.By {
	case "updated_at":
		col = epic.FieldUpdatedAt
	case "title":
		col = epic.FieldTitle
	}
	dir := sql.OrderDesc()
	if o.Sort == "asc" {
		dir = sql.OrderAsc()
	}
	return q.Order(sql.OrderByField(col, dir).ToFunc(), sql.OrderByField(epic.FieldID, dir).ToFunc())
}
