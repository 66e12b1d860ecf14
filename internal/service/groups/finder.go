package groups

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/groupcustomattribute"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/predicate"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"

	"entgo.io/ent/dialect/sql"
)

// ListParams are the filters of GET /groups, /groups/:id/subgroups and
// /groups/:id/descendant_groups, in GitLab's spelling; zero values mean no filter.
type ListParams struct {
	// Parent is the :id of /subgroups and /descendant_groups (numeric id or full path); empty
	// lists groups anywhere. An invisible parent is 404 Group Not Found.
	Parent string
	// Descendants widens Parent from its direct children to all its descendants.
	Descendants bool
	// AllAvailable is all_available: also list public (and, for signed-in users, internal)
	// groups the user does not belong to. Default: true for administrators, false otherwise;
	// anonymous callers always see public groups.
	AllAvailable *bool
	// Owned is owned: only groups the user is a direct Owner of.
	Owned bool
	// MinAccessLevel is min_access_level: only groups where the user's level reaches it.
	MinAccessLevel int
	// TopLevelOnly is top_level_only: only groups without a parent. As in GitLab it replaces
	// the Parent filter.
	TopLevelOnly bool
	// Search is search: words of 3 or more characters must all occur in the path or the name
	// (the full path when listing everywhere); shorter input must match one exactly.
	Search string
	// SkipGroups is skip_groups: group ids to leave out.
	SkipGroups []int
	// Visibility is visibility: private, internal or public.
	Visibility string
	// CustomAttributes (custom_attributes[key]=value) keeps groups carrying every pair;
	// administrators only, ignored for other callers.
	CustomAttributes map[string]string
}

// Load names what a presentation of groups reads beyond the rows; List, ListKeyset and Get load
// it with the groups, one query per page.
type Load struct {
	// CustomAttributes loads custom attributes (with_custom_attributes), for administrators only.
	CustomAttributes bool
}

// load fills what l asks for on the groups of a page.
func (s *Service) load(ctx context.Context, actor *authz.Actor, l Load, nss ...*ent.Namespace) error {
	if l.CustomAttributes {
		return s.loadAttributes(ctx, actor, nss...)
	}
	return nil
}

// Order is how List sorts: order_by name (default), path, id or similarity (only with a
// search; otherwise name), and sort asc (default) or desc. Ties break on id ascending.
type Order struct {
	By   string
	Sort string
}

// Query returns the groups matching p that actor may see, unordered and unpaginated.
func (s *Service) Query(ctx context.Context, actor *authz.Actor, p ListParams) (*ent.NamespaceQuery, error) {
	q := db.ClientFrom(ctx, s.client).Namespace.Query().Where(namespace.KindEQ(namespace.KindGroup))
	parentGiven := false
	switch {
	case p.TopLevelOnly:
		q = q.Where(namespace.ParentIDIsNil())
	case p.Parent != "":
		parent, err := s.Find(ctx, actor, p.Parent, authz.ReadGroup)
		if err != nil {
			return nil, err
		}
		parentGiven = true
		if p.Descendants {
			q = q.Where(authz.Descendants(parent.FullPath))
		} else {
			q = q.Where(namespace.ParentID(parent.ID))
		}
	}
	reach, err := s.reach(ctx, actor, p)
	if err != nil {
		return nil, err
	}
	q = q.Where(reach)
	if p.Visibility != "" {
		q = q.Where(namespace.VisibilityEQ(namespace.Visibility(p.Visibility)))
	}
	if len(p.SkipGroups) > 0 {
		q = q.Where(namespace.IDNotIn(p.SkipGroups...))
	}
	if pred := bySearch(p.Search, !parentGiven); pred != nil {
		q = q.Where(pred)
	}
	if authz.CanUser(actor, nil, authz.ReadCustomAttribute) {
		for k, v := range p.CustomAttributes {
			q = q.Where(namespace.HasCustomAttributesWith(groupcustomattribute.Key(k), groupcustomattribute.Value(v)))
		}
	}
	return q, nil
}

// reach is GitLab's choice of base set: owned groups, groups at a minimum level, everything
// (administrators), or the user's groups with their ancestors plus, when all_available or
// anonymous, the groups public to the caller.
func (s *Service) reach(ctx context.Context, a *authz.Actor, p ListParams) (predicate.Namespace, error) {
	switch {
	case p.Owned:
		if a.IsAnonymous() {
			return namespace.IDLT(0), nil
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		return namespace.HasMembersWith(member.UserID(a.UserID()), member.AccessLevelGTE(int(authz.Owner)),
			member.State("active"), member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today))), nil
	case p.MinAccessLevel > 0 && !a.IsAnonymous():
		return s.policy.GroupsWithLevel(ctx, a, authz.Level(p.MinAccessLevel))
	}
	allAvailable := a.IsAdmin()
	if p.AllAvailable != nil {
		allAvailable = *p.AllAvailable
	}
	if a.IsAdmin() && allAvailable {
		return namespace.IDGT(0), nil
	}
	var preds []predicate.Namespace
	if !a.IsAnonymous() {
		scope, err := s.policy.Scope(ctx, a, authz.Minimal)
		if err != nil {
			return nil, err
		}
		preds = append(preds, authz.MemberGroupsIn(a, scope))
	}
	if a.IsAnonymous() || allAvailable {
		preds = append(preds, authz.OpenGroups(a))
	}
	if len(preds) == 0 {
		return namespace.IDLT(0), nil
	}
	return namespace.Or(preds...), nil
}

var quotedTerm = regexp.MustCompile(`"[^"]+"`)

// Search is GitLab's fuzzy namespace search (Namespace.search): over the full path and the name
// with withParents, else the path and the name; nil for a blank search. The namespace listing
// shares it.
func Search(search string, withParents bool) predicate.Namespace {
	return bySearch(search, withParents)
}

// bySearch is GitLab's fuzzy search over path and name (full path and name when withParents).
func bySearch(search string, withParents bool) predicate.Namespace {
	search = strings.Join(strings.Fields(search), " ")
	if search == "" {
		return nil
	}
	pathColumn, pathEqual := namespace.FieldPath, namespace.PathEqualFold
	if withParents {
		pathColumn, pathEqual = namespace.FieldFullPath, namespace.FullPathEqualFold
	}
	var words []string
	rest := search
	for _, q := range quotedTerm.FindAllString(search, -1) {
		rest = strings.Replace(rest, q, "", 1)
		words = append(words, q[1:len(q)-1])
	}
	words = append(strings.Fields(rest), words...)
	var long []string
	for _, w := range words {
		if utf8.RuneCountInString(w) >= 3 {
			long = append(long, w)
		}
	}
	if len(long) == 0 {
		return namespace.Or(pathEqual(search), namespace.NameEqualFold(search))
	}
	onPath := make([]predicate.Namespace, len(long))
	onName := make([]predicate.Namespace, len(long))
	for i, w := range long {
		onPath[i], onName[i] = db.ContainsFold(pathColumn, w), db.ContainsFold(namespace.FieldName, w)
	}
	return namespace.Or(namespace.And(onPath...), namespace.And(onName...))
}

// List is Query with ordering and a page (offset, or keyset in one of KeysetOrders); the groups
// come with their ancestors loaded (full_name) and what load asks for. Total is -1 above
// pagination.CountLimit and on keyset pages.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page, load Load) (pagination.Result[*ent.Namespace], error) {
	res := pagination.Result[*ent.Namespace]{Page: page.Offset}
	q, err := s.Query(ctx, actor, p)
	if err != nil {
		return res, err
	}
	if page.Keyset {
		if res, err = keysetPage(ctx, q, o, page); err != nil {
			return res, err
		}
		return res, s.present(ctx, actor, load, res.Items)
	}
	n, err := q.Clone().Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
	if err != nil {
		return res, err
	}
	total := pagination.BoundedTotal(n)
	rows, err := order(q, o, p.Search).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return res, err
	}
	res.Items, res.Total = rows, total
	return res, s.present(ctx, actor, load, rows)
}

// present loads what a presentation of the listed groups reads: their ancestors (full_name)
// and what load asks for.
func (s *Service) present(ctx context.Context, actor *authz.Actor, load Load, rows []*ent.Namespace) error {
	if err := s.WithAncestors(ctx, rows...); err != nil {
		return err
	}
	return s.load(ctx, actor, load, rows...)
}

// Subgroups lists the direct subgroups of the group ref that actor may see.
func (s *Service) Subgroups(ctx context.Context, actor *authz.Actor, ref string, p ListParams, o Order, page pagination.Page, load Load) (pagination.Result[*ent.Namespace], error) {
	p.Parent, p.Descendants = ref, false
	return s.List(ctx, actor, p, o, page, load)
}

// Descendants lists all descendant groups of the group ref that actor may see.
func (s *Service) Descendants(ctx context.Context, actor *authz.Actor, ref string, p ListParams, o Order, page pagination.Page, load Load) (pagination.Result[*ent.Namespace], error) {
	p.Parent, p.Descendants = ref, true
	return s.List(ctx, actor, p, o, page, load)
}

// order applies o. similarity ranks exact path, exact name, path prefix and name prefix
// matches first, then deeper groups and newer ids, approximating GitLab's similarity score.
func order(q *ent.NamespaceQuery, o Order, search string) *ent.NamespaceQuery {
	dir := sql.OrderAsc()
	if o.Sort == "desc" {
		dir = sql.OrderDesc()
	}
	search = strings.ToLower(strings.Join(strings.Fields(search), " "))
	switch {
	case o.By == "similarity" && search != "":
		return q.Order(func(s *sql.Selector) {
			dia := s.Dialect()
			s.OrderExpr(sql.ExprFunc(func(b *sql.Builder) {
				b.WriteString("CASE")
				for i, step := range []struct {
					c    string
					kind db.MatchKind
				}{
					{namespace.FieldPath, db.Exact}, {namespace.FieldName, db.Exact},
					{namespace.FieldPath, db.Prefix}, {namespace.FieldName, db.Prefix},
				} {
					b.WriteString(" WHEN ")
					db.MatchRank(b, dia, s.C(step.c), search, step.kind)
					b.WriteString(" THEN " + strconv.Itoa(4-i))
				}
				b.WriteString(" ELSE 0 END DESC")
			}))
			s.OrderExpr(sql.Expr(s.C(namespace.FieldParentID) + " DESC NULLS LAST"))
			s.OrderExpr(sql.Expr(s.C(namespace.FieldID) + " DESC"))
		})
	case o.By == "id":
		return q.Order(namespace.ByID(dir))
	case o.By == "path":
		return q.Order(namespace.ByPath(dir), namespace.ByID())
	}
	return q.Order(namespace.ByName(dir), namespace.ByID())
}
