package graph

import (
	"context"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/authz"
)

// namespaceWebURL is a namespace's page: /groups/<path> for groups, /<path> for users.
func (r *Resolver) namespaceWebURL(ns *ent.Namespace) string {
	if ns.Kind == namespace.KindUser {
		return r.baseURL + "/" + ns.FullPath
	}
	return r.baseURL + "/groups/" + ns.FullPath
}

// fullName is a namespace's name with its ancestors' names ("Group / Sub").
func (r *Resolver) fullName(ctx context.Context, ns *ent.Namespace) (string, error) {
	if err := r.svc.Groups.WithAncestors(ctx, ns); err != nil {
		return "", err
	}
	var names []string
	for n := ns; n != nil; n = n.Edges.Parent {
		names = append([]string{n.Name}, names...)
	}
	return strings.Join(names, " / "), nil
}

// parentGroup is a group's parent, through the same visibility check as GET /groups/:id.
func (r *Resolver) parentGroup(ctx context.Context, ns *ent.Namespace) (*ent.Namespace, error) {
	if ns.ParentID == nil {
		return nil, nil
	}
	return orNull(r.svc.Groups.Find(ctx, actor(ctx), strconv.Itoa(*ns.ParentID), authz.ReadGroup))
}

// groupNodes are a page's groups.
func groupNodes(c *ent.GroupConnection) []*ent.Namespace {
	out := make([]*ent.Namespace, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
