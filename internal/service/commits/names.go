package commits

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// nameWithNamespace is GitLab's full_name of a project: the names of its namespace and the
// namespace's ancestors, then its own, joined by " / ".
func (s *Service) nameWithNamespace(ctx context.Context, p *ent.Project) (string, error) {
	ns := p.Edges.Namespace
	if ns == nil {
		var err error
		if ns, err = db.ClientFrom(ctx, s.client).Namespace.Get(ctx, p.NamespaceID); err != nil {
			return "", err
		}
	}
	paths := authz.Ancestors(ns.FullPath)
	rows, err := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.FullPathIn(paths...)).All(ctx)
	if err != nil {
		return "", err
	}
	byPath := map[string]string{}
	for _, r := range rows {
		byPath[r.FullPath] = r.Name
	}
	names := make([]string, 0, len(paths)+1)
	for _, path := range paths {
		names = append(names, byPath[path])
	}
	return strings.Join(append(names, p.Name), " / "), nil
}
