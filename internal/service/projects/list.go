package projects

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/projectstatistics"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/pagination"

	"entgo.io/ent/dialect/sql"
)

// List returns one page of the projects matching p that actor may read, in o's order, with
// the edges and the View the project shapes need (the one list shape, with the View as Get
// returns it). A keyset page walks the id order only (KeysetOrder): Next holds the id_after
// (asc) or id_before (desc) of the following page, empty on the last one; Total is -1.
// Another order is refused (apperr NotAllowed; REST refuses it first, with GitLab's body).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page) (pagination.Result[*ent.Project], *View, error) {
	var out pagination.Result[*ent.Project]
	if page.Keyset && o.By != KeysetOrder {
		return out, nil, KeysetUnavailable()
	}
	scope, err := s.scope(ctx, actor)
	if err != nil {
		return out, nil, err
	}
	q, err := s.query(ctx, actor, scope, p, o)
	if err != nil {
		return out, nil, err
	}
	level, group := scopeFuncs(actor, scope)
	var view *View
	if page.Keyset {
		rows, err := withDetail(q.Order(idOrder(o.Sort))).Limit(page.PerPage).All(ctx)
		if err != nil {
			return out, nil, err
		}
		out = pagination.Result[*ent.Project]{Items: rows, Total: -1, Page: page.Offset, Keyset: true}
		if len(rows) == page.PerPage && len(rows) > 0 {
			last := strconv.Itoa(rows[len(rows)-1].ID)
			if o.Sort == "asc" {
				out.Next = map[string]string{"id_after": last}
			} else {
				out.Next = map[string]string{"id_before": last}
			}
		}
		view, err = s.view(ctx, actor, rows, level, group)
		return out, view, err
	}
	// The bounded count walks up to 10,001 rows; it runs beside the page and its view.
	out.Page = page.Offset
	countQ := q.Clone()
	err = db.Concurrently(ctx, s.client,
		func(ctx context.Context) error {
			n, err := countQ.Aggregate(pagination.CountAtMost(pagination.CountLimit + 1)).Int(ctx)
			out.Total = pagination.BoundedTotal(n)
			return err
		},
		func(ctx context.Context) error {
			rows, err := withDetail(s.order(q, actor, p, o)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
			if err != nil {
				return err
			}
			out.Items = rows
			view, err = s.view(ctx, actor, rows, level, group)
			return err
		})
	if err != nil {
		return out, nil, err
	}
	return out, view, nil
}

// KeysetOrder is the one order a keyset page of projects walks, as GitLab's projects API.
const KeysetOrder = "id"

// KeysetUnavailableMessage is GitLab's refusal of a keyset page in an order it cannot walk.
const KeysetUnavailableMessage = "Keyset pagination is not yet available for this type of request"

// KeysetUnavailable refuses a keyset page in an order other than KeysetOrder.
func KeysetUnavailable() error { return apperr.NotAllowed(KeysetUnavailableMessage) }

// present checks that actor may read p (loaded withDetail) and computes its View. The level
// is computed with the View's other reads, side by side; a project the actor may not read is
// refused once they are done.
func (s *Service) present(ctx context.Context, actor *authz.Actor, p *ent.Project) (*ent.Project, *View, error) {
	level, group := s.policyFuncs(ctx, actor)
	readable := false
	checked := func(q *ent.Project) (authz.Level, bool, error) {
		l, ok, err := level(q)
		if q.ID == p.ID {
			readable = ok
		}
		return l, ok, err
	}
	v, err := s.view(ctx, actor, []*ent.Project{p}, checked, group)
	if err != nil {
		return nil, nil, err
	}
	if !readable {
		return nil, nil, apperr.NotFound("Project")
	}
	return p, v, nil
}

// reload reads a project again with the detail edges (after a write) and presents it.
func (s *Service) reload(ctx context.Context, actor *authz.Actor, id int) (*ent.Project, *View, error) {
	p, err := withDetail(db.ClientFrom(ctx, s.client).Project.Query().Where(project.ID(id))).Only(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s.present(ctx, actor, p)
}

// idOrder orders by id in the given direction (desc unless "asc").
func idOrder(sort string) func(*sql.Selector) {
	if sort == "asc" {
		return ent.Asc(project.FieldID)
	}
	return ent.Desc(project.FieldID)
}

// order applies order_by and sort with GitLab's id tie-breaker in the same direction.
func (s *Service) order(q *ent.ProjectQuery, actor *authz.Actor, p ListParams, o Order) *ent.ProjectQuery {
	dir := ent.Desc
	if o.Sort == "asc" {
		dir = ent.Asc
	}
	by := o.By
	switch {
	case by == "similarity" && p.Search != "" && !actor.IsAnonymous():
		return q.Order(similarity(p.Search), ent.Desc(project.FieldID))
	case by == "star_count":
		return q.Order(dir(project.FieldStarCount), dir(project.FieldID))
	case slices.Contains(StatisticsOrders, by) && actor.IsAdmin():
		return q.Order(statisticsOrder(by, o.Sort != "asc"), dir(project.FieldID))
	case by == "id":
		return q.Order(dir(project.FieldID))
	case by == "name", by == "path", by == "updated_at", by == "last_activity_at":
		return q.Order(dir(by), dir(project.FieldID))
	}
	return q.Order(dir(project.FieldCreatedAt), dir(project.FieldID))
}

// similarity ranks exact, then prefix, then substring matches of the search on the path and
// the name, highest first: a cheap stand-in for GitLab's similarity score.
func similarity(search string) func(*sql.Selector) {
	term := strings.ToLower(strings.TrimSpace(search))
	return func(s *sql.Selector) {
		dia := s.Dialect()
		s.OrderExpr(sql.ExprFunc(func(b *sql.Builder) {
			b.WriteString("CASE")
			for i, step := range []struct {
				c    string
				kind db.MatchKind
			}{
				{project.FieldPath, db.Exact}, {project.FieldName, db.Exact},
				{project.FieldPath, db.Prefix}, {project.FieldName, db.Prefix},
				{project.FieldPath, db.Substring}, {project.FieldName, db.Substring},
			} {
				b.WriteString(" WHEN ")
				db.MatchRank(b, dia, s.C(step.c), term, step.kind)
				b.WriteString(" THEN " + strconv.Itoa(6-i))
			}
			b.WriteString(" ELSE 0 END DESC")
		}))
	}
}

// statisticsOrder orders by one of the projects' stored statistics (as last computed; 0 for
// projects never measured), as GitLab orders by project_statistics for administrators.
func statisticsOrder(column string, desc bool) func(*sql.Selector) {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	return func(s *sql.Selector) {
		t := sql.Table(projectstatistics.Table).As("ps")
		sub := sql.Select(t.C(column)).From(t).Where(sql.ColumnsEQ(t.C(projectstatistics.FieldProjectID), s.C(project.FieldID)))
		s.OrderExpr(sql.ExprFunc(func(b *sql.Builder) {
			b.WriteString("COALESCE(").Nested(func(b *sql.Builder) { b.Join(sub) }).WriteString(", 0)" + dir)
		}))
	}
}
