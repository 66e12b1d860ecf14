// Package labels holds project and group labels: which labels apply where (a project's own and
// those of its ancestor groups; a group's own and its ancestors'), applying labels by name,
// colors and their derived text color, and the labels API's operations.
package labels

import (
	"context"

	"anvil/ent"
	"anvil/ent/label"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/internal/authz"
)

// GroupChain returns the ids of the group namespace at fullPath and of its ancestor groups;
// a personal namespace has none.
func GroupChain(ctx context.Context, c *ent.Client, fullPath string) ([]int, error) {
	return c.Namespace.Query().
		Where(namespace.FullPathIn(authz.Ancestors(fullPath)...), namespace.KindEQ(namespace.KindGroup)).
		IDs(ctx)
}

// InProject selects the labels available in project p (its own and its ancestor groups'); p's
// namespace edge must be loaded.
func InProject(ctx context.Context, c *ent.Client, p *ent.Project) (predicate.Label, error) {
	ids, err := GroupChain(ctx, c, p.Edges.Namespace.FullPath)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return label.ProjectID(p.ID), nil
	}
	return label.Or(label.ProjectID(p.ID), label.GroupIDIn(ids...)), nil
}

// Resolve returns the labels named titles available in project p, in the order given, creating
// the missing ones as project labels with the default color (as GitLab does when an issue names
// a label that does not exist yet). Names repeat at most once in the result.
func Resolve(ctx context.Context, c *ent.Client, p *ent.Project, titles []string) ([]*ent.Label, error) {
	if len(titles) == 0 {
		return nil, nil
	}
	avail, err := InProject(ctx, c, p)
	if err != nil {
		return nil, err
	}
	found, err := c.Label.Query().Where(avail, label.TitleIn(titles...)).Order(label.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	byTitle := map[string]*ent.Label{}
	for _, l := range found {
		// A project's own label wins over a group's of the same title.
		if prev, ok := byTitle[l.Title]; !ok || (prev.ProjectID == nil && l.ProjectID != nil) {
			byTitle[l.Title] = l
		}
	}
	out := make([]*ent.Label, 0, len(titles))
	seen := map[string]bool{}
	for _, t := range titles {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		l, ok := byTitle[t]
		if !ok {
			if l, err = c.Label.Create().SetTitle(t).SetColor(DefaultColor).SetProjectID(p.ID).Save(ctx); err != nil {
				return nil, err
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// ByIDs returns the labels with ids that are available in project p, in id order; ids of
// labels from elsewhere are ignored, as GitLab ignores them (GraphQL's labelIds).
func ByIDs(ctx context.Context, c *ent.Client, p *ent.Project, ids []int) ([]*ent.Label, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	avail, err := InProject(ctx, c, p)
	if err != nil {
		return nil, err
	}
	return c.Label.Query().Where(avail, label.IDIn(ids...)).Order(label.ByID()).All(ctx)
}
