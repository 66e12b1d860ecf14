package groups

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
)

// KeysetOrders are the order_by values a keyset page of groups may use. GitLab pages groups by
// keyset in name order; Anvil also walks path and id, both ways, with the id breaking ties in
// the same direction.
var KeysetOrders = []string{"name", "path", "id"}

// ListKeyset returns one keyset page of the groups matching p, in k's order (one of
// KeysetOrders), with their ancestors and what load asks for. Next is the cursor parameter of
// the following page, empty on the last page; Total is -1.
func (s *Service) ListKeyset(ctx context.Context, actor *authz.Actor, p ListParams, k pagination.Keyset, load Load) (pagination.Result[*ent.Namespace], error) {
	var r pagination.Result[*ent.Namespace]
	col, ok := keysetColumn(k.OrderBy)
	if !ok {
		return r, apperr.NotAllowedValue("order_by")
	}
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return r, err
	}
	value, id, after, err := k.Position()
	if err != nil {
		return r, err
	}
	if after {
		var v any = value
		if col == namespace.FieldID {
			if v, err = strconv.Atoi(value); err != nil {
				return r, apperr.Invalid("cursor")
			}
		}
		q = q.Where(pagination.KeysetAfter(col, v, namespace.FieldID, id, k.Desc()))
	}
	rows, err := q.Order(pagination.KeysetOrder(col, namespace.FieldID, k.Desc())).Limit(k.Limit()).All(ctx)
	if err != nil {
		return r, err
	}
	r = pagination.KeysetPage(k, rows, "cursor", func(ns *ent.Namespace) string {
		return pagination.KeysetCursor(k.OrderBy, keysetValue(col, ns), ns.ID)
	})
	if err := s.WithAncestors(ctx, r.Items...); err != nil {
		return r, err
	}
	if err := s.load(ctx, actor, load, r.Items...); err != nil {
		return r, err
	}
	return r, nil
}

// keysetColumn is the column of a keyset order.
func keysetColumn(orderBy string) (string, bool) {
	switch orderBy {
	case "name":
		return namespace.FieldName, true
	case "path":
		return namespace.FieldPath, true
	case "id":
		return namespace.FieldID, true
	}
	return "", false
}

// keysetValue is ns's value in the order column, as a cursor holds it.
func keysetValue(col string, ns *ent.Namespace) string {
	switch col {
	case namespace.FieldName:
		return ns.Name
	case namespace.FieldPath:
		return ns.Path
	}
	return strconv.Itoa(ns.ID)
}
