package groups

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/internal/apperr"
	"anvil/internal/pagination"
)

// KeysetOrders are the order_by values a keyset page of groups may use. GitLab pages groups by
// keyset in name order; Anvil also walks path and id, both ways, with the id breaking ties in
// the same direction.
var KeysetOrders = []string{"name", "path", "id"}

// keysetPage returns the keyset page of q after page.Cursor in o's order (one of
// KeysetOrders). Next is the cursor parameter of the following page, empty on the last page;
// Total is -1.
func keysetPage(ctx context.Context, q *ent.NamespaceQuery, o Order, page pagination.Page) (pagination.Result[*ent.Namespace], error) {
	var r pagination.Result[*ent.Namespace]
	col, ok := keysetColumn(o.By)
	if !ok {
		return r, apperr.NotAllowedValue("order_by")
	}
	desc := o.Sort == "desc"
	value, id, after, err := page.Position(o.By)
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
		q = q.Where(pagination.KeysetAfter(col, v, namespace.FieldID, id, desc))
	}
	rows, err := q.Order(pagination.KeysetOrder(col, namespace.FieldID, desc)).Limit(page.KeysetLimit()).All(ctx)
	if err != nil {
		return r, err
	}
	return pagination.KeysetPage(page, rows, "cursor", func(ns *ent.Namespace) string {
		return pagination.KeysetCursor(o.By, keysetValue(col, ns), ns.ID)
	}), nil
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
