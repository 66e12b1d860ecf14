package groups

import (
	"context"

	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/groupcustomattribute"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// attributeOwner checks ability (administrators only: 401/403) and returns the group whose
// custom attributes are addressed, by id or full path: 404 Group Not Found.
func (s *Service) attributeOwner(ctx context.Context, actor *authz.Actor, ref string, ability authz.Ability) (*ent.Namespace, error) {
	if err := authz.UserAllowed(actor, nil, ability); err != nil {
		return nil, err
	}
	return s.Lookup(ctx, ref)
}

// CustomAttributes lists a group's custom attributes (administrators only), oldest first.
func (s *Service) CustomAttributes(ctx context.Context, actor *authz.Actor, ref string) ([]*ent.GroupCustomAttribute, error) {
	g, err := s.attributeOwner(ctx, actor, ref, authz.ReadCustomAttribute)
	if err != nil {
		return nil, err
	}
	return db.ClientFrom(ctx, s.client).GroupCustomAttribute.Query().
		Where(groupcustomattribute.GroupID(g.ID)).Order(groupcustomattribute.ByID()).All(ctx)
}

// CustomAttribute returns one of a group's custom attributes by key (administrators only):
// "404 Not found" when the group has no such key.
func (s *Service) CustomAttribute(ctx context.Context, actor *authz.Actor, ref, key string) (*ent.GroupCustomAttribute, error) {
	g, err := s.attributeOwner(ctx, actor, ref, authz.ReadCustomAttribute)
	if err != nil {
		return nil, err
	}
	a, err := db.ClientFrom(ctx, s.client).GroupCustomAttribute.Query().
		Where(groupcustomattribute.GroupID(g.ID), groupcustomattribute.Key(key)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	return a, err
}

// SetCustomAttribute creates or replaces a group's custom attribute (administrators only).
// Keys and values are at most 255 characters.
func (s *Service) SetCustomAttribute(ctx context.Context, actor *authz.Actor, ref, key, value string) (*ent.GroupCustomAttribute, error) {
	g, err := s.attributeOwner(ctx, actor, ref, authz.UpdateCustomAttribute)
	if err != nil {
		return nil, err
	}
	e := fieldErrors{}
	for _, f := range []struct{ name, v string }{{"key", key}, {"value", value}} {
		if utf8.RuneCountInString(f.v) > 255 {
			e.add(f.name, msgTooLong255)
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	var out *ent.GroupCustomAttribute
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		a, err := c.GroupCustomAttribute.Query().
			Where(groupcustomattribute.GroupID(g.ID), groupcustomattribute.Key(key)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			out, err = c.GroupCustomAttribute.Create().SetGroupID(g.ID).SetKey(key).SetValue(value).Save(ctx)
		case err == nil:
			out, err = a.Update().SetValue(value).Save(ctx)
		}
		return err
	})
	return out, err
}

// DeleteCustomAttribute removes a group's custom attribute (administrators only): "404 Custom
// attribute Not Found" when the group has no such key.
func (s *Service) DeleteCustomAttribute(ctx context.Context, actor *authz.Actor, ref, key string) error {
	g, err := s.attributeOwner(ctx, actor, ref, authz.UpdateCustomAttribute)
	if err != nil {
		return err
	}
	n, err := db.ClientFrom(ctx, s.client).GroupCustomAttribute.Delete().
		Where(groupcustomattribute.GroupID(g.ID), groupcustomattribute.Key(key)).Exec(ctx)
	if err == nil && n == 0 {
		return apperr.NotFound("Custom attribute")
	}
	return err
}

// loadAttributes hangs the custom attributes of each group on Edges.CustomAttributes with one
// query (administrators only; others get nothing loaded).
func (s *Service) loadAttributes(ctx context.Context, actor *authz.Actor, nss ...*ent.Namespace) error {
	if len(nss) == 0 || !authz.CanUser(actor, nil, authz.ReadCustomAttribute) {
		return nil
	}
	ids := make([]int, len(nss))
	byID := make(map[int]*ent.Namespace, len(nss))
	for i, ns := range nss {
		ids[i], byID[ns.ID] = ns.ID, ns
		ns.Edges.CustomAttributes = []*ent.GroupCustomAttribute{}
	}
	rows, err := db.ClientFrom(ctx, s.client).GroupCustomAttribute.Query().
		Where(groupcustomattribute.GroupIDIn(ids...)).Order(groupcustomattribute.ByID()).All(ctx)
	if err != nil {
		return err
	}
	for _, a := range rows {
		g := byID[a.GroupID]
		g.Edges.CustomAttributes = append(g.Edges.CustomAttributes, a)
	}
	return nil
}
