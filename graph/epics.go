package graph

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/filter"
	"anvil/internal/service/awardemoji"
	"anvil/internal/service/epics"

	"entgo.io/contrib/entgql"
)

// gidEpic is the model of an epic's global id.
const gidEpic = "Epic"

// epicArgs are group.epics' filters.
type epicArgs struct {
	IID                     *string
	State                   *model.EpicState
	Search, AuthorUsername  *string
	LabelName               []string
	Confidential            *bool
	IncludeDescendantGroups *bool
	IncludeAncestorGroups   *bool
}

// epicParams maps group.epics' arguments onto the REST list's filters.
func epicParams(a epicArgs) epics.ListParams {
	p := epics.ListParams{Search: str(a.Search), Confidential: a.Confidential,
		IncludeAncestorGroups: flag(a.IncludeAncestorGroups)}
	if a.IncludeDescendantGroups != nil && !*a.IncludeDescendantGroups {
		p.ExcludeDescendantGroups = true
	}
	if a.State != nil && *a.State != model.EpicStateAll {
		p.State = string(*a.State)
	}
	if a.IID != nil {
		n, err := strconv.Atoi(*a.IID)
		if err != nil {
			n = -1
		}
		p.IIDs = []int{n}
	}
	if a.AuthorUsername != nil {
		p.AuthorUsername.Is = filter.Of(*a.AuthorUsername)
	}
	if a.LabelName != nil {
		p.Labels.Is = filter.Of(a.LabelName...)
	}
	return p
}

// epicOrder is group.epics(sort:): created (the default, newest first), updated or title.
func epicOrder(sort *model.EpicSort) *ent.EpicOrder {
	o := &ent.EpicOrder{Field: ent.EpicOrderFieldCreatedAt, Direction: entgql.OrderDirectionDesc}
	if sort == nil {
		return o
	}
	field, dir, _ := sortParts(string(*sort))
	o.Direction = dir
	switch field {
	case "updated_at":
		o.Field = ent.EpicOrderFieldUpdatedAt
	case "title":
		o.Field = ent.EpicOrderFieldTitle
	}
	return o
}

// epicConnection pages the epics of a group (and its subgroups) the caller may read.
func (r *Resolver) epicConnection(ctx context.Context, g *ent.Namespace, a epicArgs, sort *model.EpicSort, after, before *entgql.Cursor[int], first, last *int) (*ent.EpicConnection, error) {
	q, _, err := r.svc.Epics.Query(ctx, actor(ctx), strconv.Itoa(g.ID), epicParams(a))
	if err != nil {
		return orNull[ent.EpicConnection](nil, err)
	}
	order := epicOrder(sort)
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return epics.Load(q).Paginate(connection(ctx), after, first, before, last, ent.WithEpicOrder(order))
}

// epicDates are the epic's start and due dates, fixed or inherited.
func (r *Resolver) epicDates(ctx context.Context, e *ent.Epic) (epics.Dates, error) {
	ds, err := r.svc.Epics.Dates(ctx, []*ent.Epic{e})
	return ds[e.ID], err
}

// epicPath is the epic's web path, /groups/<group>/-/epics/<iid>; the group must be loaded.
func epicPath(e *ent.Epic) string {
	return "/groups/" + e.Edges.Group.FullPath + "/-/epics/" + strconv.Itoa(e.Iid)
}

// epicAwardRef names an epic for the award emoji domain.
func epicAwardRef(e *ent.Epic) awardemoji.Ref {
	return awardemoji.Ref{Parent: strconv.Itoa(e.GroupID), Keys: []string{strconv.Itoa(e.Iid)}}
}

// epicLabelConnection is Epic.labels, in title order.
func epicLabelConnection(e *ent.Epic, after, before *entgql.Cursor[int], first, last *int) *ent.LabelConnection {
	all := make([]*ent.Label, 0, len(e.Edges.LabelLinks))
	for _, l := range e.Edges.LabelLinks {
		if l.Edges.Label != nil {
			all = append(all, l.Edges.Label)
		}
	}
	sortLabels(all)
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(l *ent.Label) int { return l.ID }, after, before, first, last)
	c := &ent.LabelConnection{PageInfo: info, TotalCount: len(all), Edges: make([]*ent.LabelEdge, len(nodes))}
	for i, l := range nodes {
		c.Edges[i] = &ent.LabelEdge{Node: l, Cursor: cursors[i]}
	}
	return c
}

// sortLabels orders labels by title.
func sortLabels(ls []*ent.Label) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].Title < ls[j-1].Title; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// epicNodes are a page's epics.
func epicNodes(c *ent.EpicConnection) []*ent.Epic {
	out := make([]*ent.Epic, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
