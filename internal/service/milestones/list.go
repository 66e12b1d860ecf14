package milestones

import (
	"context"
	"strconv"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/milestone"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/filter"
	"anvil/internal/pagination"
	"anvil/internal/service/labels"

	"entgo.io/ent/dialect/sql"
)

// ListParams are the filters of GET /projects/:id/milestones and GET /groups/:id/milestones.
type ListParams struct {
	// IIDs (iids[]) is ignored with IncludeAncestors, as in GitLab.
	IIDs []int
	// State (state): active, closed or all ("" = all).
	State string
	// Title (title) matches exactly; Search (search) the title or description, case-insensitively.
	Title  *string
	Search string
	// SearchTitle (search_title, groups): every space-separated term in the title.
	SearchTitle string
	// IncludeAncestors (include_ancestors, or the deprecated include_parent_milestones): the
	// milestones of the ancestor groups too.
	IncludeAncestors bool
	// IncludeDescendants (include_descendants, groups): those of descendant groups and their
	// projects the actor may read.
	IncludeDescendants bool
	// ContainingDate (containing_date, groups): start_date <= date <= due_date.
	ContainingDate *time.Time
	// StartDate and EndDate (start_date, end_date, groups, both or neither): the milestones
	// whose time frame overlaps [StartDate, EndDate].
	StartDate, EndDate *time.Time
	// Updated is updated_after and updated_before.
	Updated filter.Range
}

// Result is a page of milestones with the full path of each one's owner (its web URL).
type Result struct {
	pagination.Result[*ent.Milestone]
	OwnerPaths map[int]string
}

// List returns a page of the owner's milestones matching p, due date first (undated last),
// then title.
func (s *Service) List(ctx context.Context, actor *authz.Actor, o Owner, p ListParams, page pagination.Offset) (Result, error) {
	res := Result{Result: pagination.Result[*ent.Milestone]{Page: page}}
	q, err := s.Query(ctx, actor, o, p)
	if err != nil {
		return res, err
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	rows, err := q.WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		Order(sql.OrderByField(milestone.FieldDueDate, sql.OrderNullsLast()).ToFunc(), milestone.ByTitle(), milestone.ByID()).
		Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, pagination.BoundedTotal(n)
	res.OwnerPaths = map[int]string{}
	for _, m := range rows {
		res.OwnerPaths[m.ID] = ownerPath(m)
	}
	return res, nil
}

// Query returns the owner's milestones matching p, unordered (REST pages it; GraphQL
// paginates it). An owner the actor cannot read is 404.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, o Owner, p ListParams) (*ent.MilestoneQuery, error) {
	own, err := s.resolve(ctx, actor, o, authz.ReadMilestone)
	if err != nil {
		return nil, err
	}
	if (p.StartDate == nil) != (p.EndDate == nil) {
		return nil, apperr.BadParam("start_date, end_date provide all or none of parameters")
	}
	c := db.ClientFrom(ctx, s.client)
	scope, err := s.scope(ctx, c, actor, own, p)
	if err != nil {
		return nil, err
	}
	return c.Milestone.Query().Where(scope).Where(filters(p)...), nil
}

// FindByID returns the milestone with id, its owner loaded, if the actor may read its project
// or group (GraphQL's node(id:)): 404 Milestone Not Found otherwise.
func (s *Service) FindByID(ctx context.Context, actor *authz.Actor, id int) (*ent.Milestone, error) {
	m, err := db.ClientFrom(ctx, s.client).Milestone.Query().Where(milestone.ID(id)).
		WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("Milestone")
	}
	if err != nil {
		return nil, err
	}
	o := Owner{}
	switch {
	case m.GroupID != nil:
		o = Owner{Group: true, Ref: strconv.Itoa(*m.GroupID)}
	case m.ProjectID != nil:
		o.Ref = strconv.Itoa(*m.ProjectID)
	}
	if _, err := s.resolve(ctx, actor, o, authz.ReadMilestone); err != nil {
		if apperr.IsNotFound(err) || apperr.Is(err, apperr.KindForbidden, apperr.KindUnauthorized) {
			return nil, apperr.NotFound("Milestone")
		}
		return nil, err
	}
	return m, nil
}

// OwnerPath is the full path of the milestone's project or group; both edges must be loaded
// (the project with its namespace), as Query's callers and FindByID load them.
func OwnerPath(m *ent.Milestone) string { return ownerPath(m) }

// ownerPath is the full path of a milestone's loaded project or group.
func ownerPath(m *ent.Milestone) string {
	if g := m.Edges.Group; g != nil {
		return g.FullPath
	}
	if p := m.Edges.Project; p != nil && p.Edges.Namespace != nil {
		return p.Edges.Namespace.FullPath + "/" + p.Path
	}
	return ""
}

// scope selects the owner's milestones, with its ancestors' or descendants' when asked.
func (s *Service) scope(ctx context.Context, c *ent.Client, actor *authz.Actor, own owner, p ListParams) (predicate.Milestone, error) {
	if own.project != nil {
		if !p.IncludeAncestors {
			return milestone.ProjectID(own.project.ID), nil
		}
		ids, err := labels.GroupChain(ctx, c, own.project.Edges.Namespace.FullPath)
		if err != nil {
			return nil, err
		}
		return milestone.Or(milestone.ProjectID(own.project.ID), milestone.GroupIDIn(ids...)), nil
	}
	groupIDs := []int{own.group.ID}
	if p.IncludeAncestors {
		ids, err := labels.GroupChain(ctx, c, own.group.FullPath)
		if err != nil {
			return nil, err
		}
		groupIDs = ids
	}
	terms := []predicate.Milestone{milestone.GroupIDIn(groupIDs...)}
	if p.IncludeDescendants {
		var sc *authz.Scope
		if !actor.IsAnonymous() {
			var err error
			if sc, err = s.policy.Scope(ctx, actor, authz.Guest); err != nil {
				return nil, err
			}
		}
		sub := namespace.And(authz.Descendants(own.group.FullPath), authz.VisibleGroupsIn(actor, sc))
		terms = append(terms,
			milestone.HasGroupWith(sub),
			milestone.HasProjectWith(project.PendingDelete(false), authz.VisibleProjectsIn(actor, sc),
				project.HasNamespaceWith(namespace.Or(namespace.ID(own.group.ID), authz.Descendants(own.group.FullPath)))))
	}
	return milestone.Or(terms...), nil
}

// filters turns the list parameters into predicates.
func filters(p ListParams) []predicate.Milestone {
	var out []predicate.Milestone
	if len(p.IIDs) > 0 && !p.IncludeAncestors {
		out = append(out, milestone.IidIn(p.IIDs...))
	}
	switch p.State {
	case "active":
		out = append(out, milestone.StateEQ(milestone.StateActive))
	case "closed":
		out = append(out, milestone.StateEQ(milestone.StateClosed))
	}
	if p.Title != nil {
		out = append(out, milestone.Title(*p.Title))
	}
	if p.Search != "" {
		out = append(out, milestone.Or(db.ContainsFold(milestone.FieldTitle, p.Search), db.ContainsFold(milestone.FieldDescription, p.Search)))
	}
	for _, term := range strings.Fields(p.SearchTitle) {
		out = append(out, predicate.Milestone(db.ContainsFold(milestone.FieldTitle, term)))
	}
	if d := p.ContainingDate; d != nil {
		day := d.UTC().Truncate(24 * time.Hour)
		out = append(out, milestone.StartDateLTE(day), milestone.DueDateGTE(day))
	}
	if p.StartDate != nil && p.EndDate != nil {
		out = append(out,
			milestone.Or(milestone.StartDateNotNil(), milestone.DueDateNotNil()),
			milestone.Or(milestone.StartDateIsNil(), milestone.StartDateLTE(*p.EndDate)),
			milestone.Or(milestone.DueDateIsNil(), milestone.DueDateGTE(*p.StartDate)))
	}
	for _, r := range p.Updated.Predicates(milestone.FieldUpdatedAt) {
		out = append(out, r)
	}
	return out
}

// Expired is GitLab's expired?: the due date has passed (a milestone is due through the end of
// its due date).
func Expired(m *ent.Milestone, now time.Time) bool {
	if m.DueDate == nil {
		return false
	}
	return m.DueDate.UTC().Before(now.UTC().Truncate(24 * time.Hour))
}

// Upcoming is GitLab's upcoming?: the start date is still ahead.
func Upcoming(m *ent.Milestone, now time.Time) bool {
	return m.StartDate != nil && m.StartDate.After(now)
}

// WithOwner returns m with its project (and the project's namespace) or group loaded, for its
// web path; m was read by the caller with the actor's rights, so no check is made here.
func (s *Service) WithOwner(ctx context.Context, m *ent.Milestone) (*ent.Milestone, error) {
	return db.ClientFrom(ctx, s.client).Milestone.Query().Where(milestone.ID(m.ID)).
		WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).Only(ctx)
}
