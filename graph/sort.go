package graph

import (
	"strings"

	"anvil/ent"
	"anvil/graph/model"

	"entgo.io/contrib/entgql"
)

// GitLab's list sort arguments, mapped onto the cursor pager's order. Ties are broken by id in
// the same direction (the pager adds it), so every order pages stably. Unknown values fall back
// to the list's default, as GitLab's finders ignore a sort they do not know.

// sortParts splits "<field>_<direction>" ("created_desc", "latest_activity_asc").
func sortParts(sort string) (field string, dir entgql.OrderDirection, ok bool) {
	i := strings.LastIndexByte(sort, '_')
	if i <= 0 {
		return "", "", false
	}
	switch strings.ToLower(sort[i+1:]) {
	case "asc":
		dir = entgql.OrderDirectionAsc
	case "desc":
		dir = entgql.OrderDirectionDesc
	default:
		return "", "", false
	}
	return strings.ToLower(sort[:i]), dir, true
}

// projectOrder is projects(sort:): id (the default, id_desc), name, path, created, updated and
// latest_activity.
func projectOrder(sort *string) *ent.ProjectOrder {
	fields := map[string]*ent.ProjectOrderField{
		"id": ent.DefaultProjectOrder.Field, "name": ent.ProjectOrderFieldName, "path": ent.ProjectOrderFieldPath,
		"created": ent.ProjectOrderFieldCreatedAt, "created_at": ent.ProjectOrderFieldCreatedAt,
		"updated": ent.ProjectOrderFieldUpdatedAt, "updated_at": ent.ProjectOrderFieldUpdatedAt,
		"latest_activity": ent.ProjectOrderFieldLastActivityAt, "last_activity_at": ent.ProjectOrderFieldLastActivityAt,
	}
	if f, dir, ok := sortParts(str(sort)); ok && fields[f] != nil {
		return &ent.ProjectOrder{Field: fields[f], Direction: dir}
	}
	return &ent.ProjectOrder{Field: ent.DefaultProjectOrder.Field, Direction: entgql.OrderDirectionDesc}
}

// groupOrder is groups(sort:): name (the default, name_asc), path, id, created and updated.
func groupOrder(sort *string) *ent.GroupOrder {
	fields := map[string]*ent.GroupOrderField{
		"id": ent.DefaultGroupOrder.Field, "name": ent.NamespaceOrderFieldName, "path": ent.NamespaceOrderFieldPath,
		"created": ent.NamespaceOrderFieldCreatedAt, "created_at": ent.NamespaceOrderFieldCreatedAt,
		"updated": ent.NamespaceOrderFieldUpdatedAt, "updated_at": ent.NamespaceOrderFieldUpdatedAt,
	}
	if f, dir, ok := sortParts(str(sort)); ok && fields[f] != nil {
		return &ent.GroupOrder{Field: fields[f], Direction: dir}
	}
	return &ent.GroupOrder{Field: ent.NamespaceOrderFieldName, Direction: entgql.OrderDirectionAsc}
}

// userOrder is users(sort:), GitLab's Sort enum: created (the default, created_desc) or updated.
func userOrder(sort *model.Sort) *ent.UserOrder {
	value := "created_desc"
	if sort != nil {
		value = sort.Normalized()
	}
	field, dir, _ := sortParts(value)
	if field == "updated" {
		return &ent.UserOrder{Field: ent.UserOrderFieldUpdatedAt, Direction: dir}
	}
	return &ent.UserOrder{Field: ent.UserOrderFieldCreatedAt, Direction: dir}
}
