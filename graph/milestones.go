package graph

import (
	"context"
	"strconv"
	"time"

	"anvil/ent"
	"anvil/ent/milestone"
	"anvil/graph/model"
	"anvil/internal/service/milestones"

	"entgo.io/contrib/entgql"
)

// milestoneParams maps the milestone list arguments onto the finder's parameters.
func milestoneParams(timeframe *model.Timeframe, ids []string, state *milestone.State, title, searchTitle *string, containingDate *time.Time, includeAncestors *bool) (milestones.ListParams, error) {
	p := milestones.ListParams{Title: title, SearchTitle: str(searchTitle), ContainingDate: containingDate, IncludeAncestors: flag(includeAncestors)}
	if state != nil {
		p.State = string(*state)
	}
	if timeframe != nil {
		start, err := parseDate("timeframe.start", timeframe.Start)
		if err != nil {
			return p, err
		}
		end, err := parseDate("timeframe.end", timeframe.End)
		if err != nil {
			return p, err
		}
		if end.Before(start) {
			return p, badInput("start must be before end")
		}
		p.StartDate, p.EndDate = &start, &end
	}
	return p, nil
}

// milestoneConnection pages the owner's milestones matching p; ids (global ids) narrow them.
func (r *Resolver) milestoneConnection(ctx context.Context, o milestones.Owner, p milestones.ListParams, ids []string, sort *model.MilestoneSort, after, before *entgql.Cursor[int], first, last *int) (*ent.MilestoneConnection, error) {
	byID, err := parseGIDs(ids, gidMilestone)
	if err != nil {
		return nil, err
	}
	q, err := r.svc.Milestones.Query(ctx, actor(ctx), o, p)
	if err != nil {
		return orNull[ent.MilestoneConnection](nil, err)
	}
	if ids != nil {
		q = q.Where(milestone.IDIn(byID...))
	}
	order := milestoneOrder(sort)
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return q.WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		Paginate(connection(ctx), after, first, before, last, ent.WithMilestoneOrder(order))
}

// milestoneOrder is MilestoneSort: created or updated; by default the milestones' ids in
// ascending order.
func milestoneOrder(sort *model.MilestoneSort) *ent.MilestoneOrder {
	if sort == nil {
		return &ent.MilestoneOrder{Field: ent.DefaultMilestoneOrder.Field, Direction: entgql.OrderDirectionAsc}
	}
	field, dir, _ := sortParts(string(*sort))
	if field == "updated" {
		return &ent.MilestoneOrder{Field: ent.MilestoneOrderFieldUpdatedAt, Direction: dir}
	}
	return &ent.MilestoneOrder{Field: ent.MilestoneOrderFieldCreatedAt, Direction: dir}
}

// milestonePath is the milestone's web path: /<project>/-/milestones/<iid> or
// /groups/<group>/-/milestones/<iid>. Its owner is loaded when the query did not.
func (r *Resolver) milestonePath(ctx context.Context, m *ent.Milestone) (string, error) {
	if m.Edges.Group == nil && m.Edges.Project == nil {
		loaded, err := r.svc.Milestones.WithOwner(ctx, m)
		if err != nil {
			return "", err
		}
		m = loaded
	}
	prefix := "/"
	if m.GroupID != nil {
		prefix = "/groups/"
	}
	return prefix + milestones.OwnerPath(m) + "/-/milestones/" + strconv.Itoa(m.Iid), nil
}

// milestoneNodes are a page's milestones.
func milestoneNodes(c *ent.MilestoneConnection) []*ent.Milestone {
	out := make([]*ent.Milestone, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
