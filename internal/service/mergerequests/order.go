package mergerequests

import (
	"fmt"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/label"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestlabel"
	"anvil/ent/milestone"

	"entgo.io/ent/dialect/sql"
)

// order applies order_by and sort as GitLab's MergeRequest.sort_by_attribute does
// ("<order_by>_<sort>"):
//   - created_at, updated_at: the column, the id breaking ties in the same direction;
//   - merged_at: the merge time, unmerged merge requests last either way, then the id in the
//     same direction;
//   - title: the title, id descending on ties;
//   - popularity: upvotes (thumbsup awards);
//   - milestone_due: the milestone's due date, merge requests without one last;
//   - label_priority: the highest priority among the labels (the lowest number), merge
//     requests without a prioritized label last;
//   - priority: milestone due date, then label priority, both nulls last.
//
// Except for created_at, updated_at and merged_at, ties are broken by id descending
// (GitLab's with_order_id_desc).
func order(q *ent.MergeRequestQuery, o Order) *ent.MergeRequestQuery {
	return q.Order(orderBy(o)...)
}

// orderBy is order's terms, for a selector of merge requests.
func orderBy(o Order) []mergerequest.OrderOption {
	dir := "DESC"
	opt := sql.OrderDesc()
	if o.Sort == "asc" {
		dir, opt = "ASC", sql.OrderAsc()
	}
	idDesc := sql.OrderByField(mergerequest.FieldID, sql.OrderDesc()).ToFunc()
	idSame := sql.OrderByField(mergerequest.FieldID, opt).ToFunc()
	switch o.By {
	case "updated_at":
		return []mergerequest.OrderOption{sql.OrderByField(mergerequest.FieldUpdatedAt, opt).ToFunc(), idSame}
	case "merged_at":
		return []mergerequest.OrderOption{sql.OrderByField(mergerequest.FieldMergedAt, opt, sql.OrderNullsLast()).ToFunc(), idSame}
	case "title":
		return []mergerequest.OrderOption{sql.OrderByField(mergerequest.FieldTitle, opt).ToFunc(), idDesc}
	case "popularity":
		return []mergerequest.OrderOption{byExpr(func(s *sql.Selector) string { return awardsNamed(s, "thumbsup") + " " + dir }), idDesc}
	case "milestone_due":
		return []mergerequest.OrderOption{byExpr(func(s *sql.Selector) string { return nullsLast(milestoneDue(s), dir) }), idDesc}
	case "label_priority":
		return []mergerequest.OrderOption{byExpr(func(s *sql.Selector) string { return nullsLast(labelPriority(s), dir) }), idDesc}
	case "priority":
		return []mergerequest.OrderOption{byExpr(func(s *sql.Selector) string {
			return nullsLast(milestoneDue(s), dir) + ", " + nullsLast(labelPriority(s), dir)
		}), idDesc}
	}
	return []mergerequest.OrderOption{sql.OrderByField(mergerequest.FieldCreatedAt, opt).ToFunc(), idSame}
}

// byExpr orders by an SQL expression built from the selector.
func byExpr(expr func(s *sql.Selector) string) func(*sql.Selector) {
	return func(s *sql.Selector) { s.OrderExpr(sql.Raw(expr(s))) }
}

// nullsLast orders expr in dir with nulls after every value (both databases accept NULLS LAST).
func nullsLast(expr, dir string) string { return expr + " " + dir + " NULLS LAST" }

// awardsNamed counts the awards named name on the selector's merge request (the
// (awardable_type, awardable_id, name) index); name is a constant of this package, never input.
func awardsNamed(s *sql.Selector, name string) string {
	return fmt.Sprintf("(SELECT COUNT(*) FROM %s WHERE %s = '%s' AND %s = %s AND %s = '%s')",
		awardemoji.Table, awardemoji.FieldAwardableType, awardemoji.AwardableTypeMergeRequest,
		awardemoji.FieldAwardableID, s.C(mergerequest.FieldID), awardemoji.FieldName, name)
}

// milestoneDue is the due date of the merge request's milestone (null without one).
func milestoneDue(s *sql.Selector) string {
	return fmt.Sprintf("(SELECT %s FROM %s WHERE %s = %s)", milestone.FieldDueDate, milestone.Table,
		milestone.FieldID, s.C(mergerequest.FieldMilestoneID))
}

// labelPriority is the highest priority (the lowest number) among the merge request's labels,
// null when none has one: GitLab's highest_priority.
func labelPriority(s *sql.Selector) string {
	return fmt.Sprintf("(SELECT MIN(l.%s) FROM %s ml JOIN %s l ON l.%s = ml.%s WHERE ml.%s = %s)",
		label.FieldPriority, mergerequestlabel.Table, label.Table, label.FieldID, mergerequestlabel.FieldLabelID,
		mergerequestlabel.FieldMergeRequestID, s.C(mergerequest.FieldID))
}
