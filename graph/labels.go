package graph

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/service/labels"

	"entgo.io/contrib/entgql"
)

// labelConnection pages the owner's labels matching p, in title order as GitLab lists them.
func (r *Resolver) labelConnection(ctx context.Context, o labels.Owner, p labels.ListParams, after, before *entgql.Cursor[int], first, last *int) (*ent.LabelConnection, error) {
	q, err := r.svc.Labels.Query(ctx, actor(ctx), o, p)
	if err != nil {
		return orNull[ent.LabelConnection](nil, err)
	}
	order := &ent.LabelOrder{Field: ent.LabelOrderFieldTitle, Direction: entgql.OrderDirectionAsc}
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return q.Paginate(connection(ctx), after, first, before, last, ent.WithLabelOrder(order))
}

// labelByTitle is project.label(title:) and group.label(title:): the owner's label, or an
// ancestor group's, with that title; null when there is none.
func (r *Resolver) labelByTitle(ctx context.Context, o labels.Owner, title string) (*ent.Label, error) {
	q, err := r.svc.Labels.Query(ctx, actor(ctx), o, labels.ListParams{IncludeAncestorGroups: true, Title: &title})
	if err != nil {
		return orNull[ent.Label](nil, err)
	}
	ls, err := q.All(ctx)
	if err != nil || len(ls) == 0 {
		return nil, err
	}
	for _, l := range ls { // the owner's own label wins over an ancestor's of the same title
		own := l.ProjectID != nil
		if o.Group {
			own = l.GroupID != nil && strconv.Itoa(*l.GroupID) == o.Ref
		}
		if own {
			return l, nil
		}
	}
	return ls[0], nil
}

// labelNodes are a page's labels.
func labelNodes(c *ent.LabelConnection) []*ent.Label {
	out := make([]*ent.Label, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
