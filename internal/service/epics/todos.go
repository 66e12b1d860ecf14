package epics

import (
	"context"

	"anvil/ent"
	"anvil/ent/epic"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// CanRead reports whether a may read the epic e (loaded with its group): read_epic in its
// group, and read_confidential_epic for a confidential one, as Find decides for a request.
func (s *Service) CanRead(ctx context.Context, a *authz.Actor, e *ent.Epic) (bool, error) {
	g := e.Edges.Group
	if g == nil {
		var err error
		if g, err = db.ClientFrom(ctx, s.client).Namespace.Get(ctx, e.GroupID); err != nil {
			return false, err
		}
	}
	return CanRead(ctx, s.policy, a, g, e)
}

// CanRead reports whether a may read the epic e of group g, with the policy p (the to-do
// recorder asks it of each user an epic's mentions name).
func CanRead(ctx context.Context, p *authz.Policy, a *authz.Actor, g *ent.Namespace, e *ent.Epic) (bool, error) {
	level, readable, err := p.GroupLevel(ctx, a, g)
	if err != nil || !readable {
		return false, err
	}
	if !authz.CanGroup(a, g, level, authz.ReadEpic) {
		return false, nil
	}
	return !e.Confidential || authz.CanGroup(a, g, level, authz.ReadConfidentialEpic), nil
}

// Readable are those of the epics ids the actor may read (ids of epics that are gone are not).
func (s *Service) Readable(ctx context.Context, actor *authz.Actor, ids []int) ([]int, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	es, err := db.ClientFrom(ctx, s.client).Epic.Query().Where(epic.IDIn(ids...)).WithGroup().All(ctx)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range es {
		ok, err := s.CanRead(ctx, actor, e)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, e.ID)
		}
	}
	return out, nil
}

// Views are the epics ids as the REST presenter shows them (with Load's edges and their
// dates), references relative to each epic's own group, by id; ids of epics that are gone are
// left out.
func (s *Service) Views(ctx context.Context, ids []int) (map[int]View, error) {
	out := map[int]View{}
	if len(ids) == 0 {
		return out, nil
	}
	es, err := Load(db.ClientFrom(ctx, s.client).Epic.Query().Where(epic.IDIn(ids...))).All(ctx)
	if err != nil {
		return nil, err
	}
	ds, err := s.dates(ctx, es)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		out[e.ID] = View{Epic: e, Group: e.Edges.Group, Dates: ds[e.ID]}
	}
	return out, nil
}
