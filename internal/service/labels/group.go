package labels

import (
	"context"

	"anvil/ent"
	"anvil/ent/label"
)

// ResolveInGroup returns the labels named titles available in group g (its own and its
// ancestors'), in the order given, creating the missing ones as labels of g with the default
// color, as GitLab's Labels::FindOrCreateService does for a group's issuables (epics). Names
// repeat at most once in the result.
func ResolveInGroup(ctx context.Context, c *ent.Client, g *ent.Namespace, titles []string) ([]*ent.Label, error) {
	if len(titles) == 0 {
		return nil, nil
	}
	ids, err := GroupChain(ctx, c, g.FullPath)
	if err != nil {
		return nil, err
	}
	found, err := c.Label.Query().Where(label.GroupIDIn(ids...), label.TitleIn(titles...)).Order(label.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	// The nearest group's label wins: the group's own over an ancestor's of the same title.
	byTitle := map[string]*ent.Label{}
	for _, l := range found {
		if prev, ok := byTitle[l.Title]; !ok || *l.GroupID == g.ID && *prev.GroupID != g.ID {
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
			if l, err = c.Label.Create().SetTitle(t).SetColor(DefaultColor).SetGroupID(g.ID).Save(ctx); err != nil {
				return nil, err
			}
		}
		out = append(out, l)
	}
	return out, nil
}
