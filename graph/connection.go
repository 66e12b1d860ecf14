package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// maxPageSize is GitLab's default and maximum connection page size.
const maxPageSize = 100

// page applies GitLab's page size to first/last: above 100 is cut to 100, and a connection
// asked for neither returns its first 100 nodes.
func page(first, last *int) (*int, *int) {
	clamp := func(n *int) *int {
		if n != nil && *n > maxPageSize {
			v := maxPageSize
			return &v
		}
		return n
	}
	first, last = clamp(first), clamp(last)
	if first == nil && last == nil {
		v := maxPageSize
		first = &v
	}
	return first, last
}

// wholeRows is a field name no ent type knows: its presence makes ent's field collection load
// every column instead of only the selected ones, so resolvers that read more than their own
// column (Member.id reads project_id, Group.id reads kind) always see a whole row.
const wholeRows = "__anvilWholeRows"

// connection prepares ctx for entgql's Paginate on the connection field being resolved.
// GitLab clients read `nodes` and `count`, which entgql's pager does not know: they are
// rewritten to `edges { node }` and `totalCount` so that the pager loads and counts them.
// The node selection is flattened (fragments inlined) and marked to load whole rows.
func connection(ctx context.Context) context.Context {
	fc := graphql.GetFieldContext(ctx)
	oc := graphql.GetOperationContext(ctx)
	if fc == nil || oc == nil {
		return ctx
	}
	var (
		sel       ast.SelectionSet
		nodes     ast.SelectionSet
		wantNodes bool
	)
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, nil) {
		switch f.Name {
		case "nodes":
			wantNodes = true
			nodes = append(nodes, f.Selections...)
		case "edges":
			wantNodes = true
			for _, e := range graphql.CollectFields(oc, f.Selections, nil) {
				if e.Name == "node" {
					nodes = append(nodes, e.Selections...)
				}
			}
		case "count", "totalCount":
			sel = append(sel, field("totalCount", nil))
		case "pageInfo":
			sel = append(sel, field("pageInfo", nil))
		}
	}
	if wantNodes {
		sel = append(sel, field("edges", ast.SelectionSet{field("node", flatten(oc, nodes))}))
	}
	rewritten := *fc
	rewritten.Field = graphql.CollectedField{Field: fc.Field.Field, Selections: sel}
	return graphql.WithFieldContext(ctx, &rewritten)
}

// needsNamespace are the computed fields that read the namespace edge (Project.fullPath,
// webUrl, nameWithNamespace, group; Member.group): asking for one loads the edge with the
// page, in one query, instead of once per node. On types without that edge the extra
// selection is ignored by ent.
var needsNamespace = map[string]bool{"fullPath": true, "webUrl": true, "nameWithNamespace": true, "group": true}

// flatten turns a selection into plain fields, recursively, each level marked wholeRows.
func flatten(oc *graphql.OperationContext, sel ast.SelectionSet) ast.SelectionSet {
	out := ast.SelectionSet{field(wholeRows, nil)}
	collected := graphql.CollectFields(oc, sel, nil)
	implied, hasNamespace := false, false
	for _, f := range collected {
		implied = implied || needsNamespace[f.Name]
		hasNamespace = hasNamespace || f.Name == "namespace"
	}
	if implied && !hasNamespace {
		out = append(out, field("namespace", ast.SelectionSet{field(wholeRows, nil)}))
	}
	for _, f := range collected {
		var sub ast.SelectionSet
		if len(f.Selections) > 0 {
			sub = flatten(oc, f.Selections)
		}
		copied := *f.Field
		copied.Directives = nil // @skip/@include were applied by CollectFields
		copied.SelectionSet = sub
		out = append(out, &copied)
	}
	return out
}

func field(name string, sel ast.SelectionSet) *ast.Field {
	return &ast.Field{Name: name, Alias: name, SelectionSet: sel}
}
