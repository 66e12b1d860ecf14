package graph

import (
	"context"

	"anvil/ent"
	"anvil/ent/namespace"
)

// projectNamespace is a project's namespace: the loaded edge, else loaded now. A project the
// caller may read has a readable namespace (a project is never more visible than its
// namespace, and members of a project may read its ancestors), so no further check is made.
func projectNamespace(ctx context.Context, p *ent.Project) (*ent.Namespace, error) {
	return p.Namespace(ctx)
}

// projectFullPath is "namespace/path".
func projectFullPath(ctx context.Context, p *ent.Project) (string, error) {
	ns, err := projectNamespace(ctx, p)
	if err != nil {
		return "", err
	}
	return ns.FullPath + "/" + p.Path, nil
}

// projectGroup is the project's namespace when it is a group, else null.
func projectGroup(ctx context.Context, p *ent.Project) (*ent.Namespace, error) {
	ns, err := projectNamespace(ctx, p)
	if err != nil || ns.Kind != namespace.KindGroup {
		return nil, err
	}
	return ns, nil
}

// nameWithNamespace is "Group / Sub / Project".
func (r *Resolver) nameWithNamespace(ctx context.Context, p *ent.Project) (string, error) {
	ns, err := projectNamespace(ctx, p)
	if err != nil {
		return "", err
	}
	full, err := r.fullName(ctx, ns)
	if err != nil {
		return "", err
	}
	return full + " / " + p.Name, nil
}

// projectNodes are a page's projects.
func projectNodes(c *ent.ProjectConnection) []*ent.Project {
	out := make([]*ent.Project, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}
