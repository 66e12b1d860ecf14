package issues

import (
	"fmt"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/issuelabel"
	"anvil/ent/label"
	"anvil/ent/milestone"

	"entgo.io/ent/dialect/sql"
)

// order applies order_by and sort as GitLab's Issue.sort_by_attribute does ("<order_by>_<sort>"):
//   - created_at, updated_at: the column, the id breaking ties in the same direction;
//   - title, due_date: the column (due dates nulls last either way), id descending on ties;
//   - popularity: upvotes (thumbsup awards);
//   - milestone_due: the milestone's due date, issues without one last;
//   - label_priority: the highest priority among the issue's labels (the lowest number), issues
//     without a prioritized label last;
//   - priority: milestone due date, then label priority, both nulls last;
//   - weight: the weight, nulls last;
//   - relative_position: ascending, nulls last, whatever sort says (GitLab orders it one way),
//     ties by id ascending.
//
// Except for created_at and updated_at, ties are broken by id descending (GitLab's
// with_order_id_desc).
func order(q *ent.IssueQuery, o Order) *ent.IssueQuery {
	dir := "DESC"
	opt := sql.OrderDesc()
	if o.Sort == "asc" {
		dir, opt = "ASC", sql.OrderAsc()
	}
	idDesc := sql.OrderByField(issue.FieldID, sql.OrderDesc()).ToFunc()
	switch o.By {
	case "updated_at":
		return q.Order(sql.OrderByField(issue.FieldUpdatedAt, opt).ToFunc(), sql.OrderByField(issue.FieldID, opt).ToFunc())
	case "title":
		return q.Order(sql.OrderByField(issue.FieldTitle, opt).ToFunc(), idDesc)
	case "due_date", "weight":
		return q.Order(sql.OrderByField(o.By, opt, sql.OrderNullsLast()).ToFunc(), idDesc)
	case "relative_position":
		return q.Order(sql.OrderByField(issue.FieldRelativePosition, sql.OrderAsc(), sql.OrderNullsLast()).ToFunc(),
			sql.OrderByField(issue.FieldID, sql.OrderAsc()).ToFunc())
	case "popularity":
		return q.Order(byExpr(func(s *sql.Selector) string { return awardCount(s, thumbsUp) + " " + dir }), idDesc)
	case "milestone_due":
		return q.Order(byExpr(func(s *sql.Selector) string { return nullsLast(milestoneDue(s), dir) }), idDesc)
	case "label_priority":
		return q.Order(byExpr(func(s *sql.Selector) string { return nullsLast(labelPriority(s), dir) }), idDesc)
	case "priority":
		return q.Order(byExpr(func(s *sql.Selector) string {
			return nullsLast(milestoneDue(s), dir) + ", " + nullsLast(labelPriority(s), dir)
		}), idDesc)
	}
	return q.Order(sql.OrderByField(issue.FieldCreatedAt, opt).ToFunc(), sql.OrderByField(issue.FieldID, opt).ToFunc())
}

// byExpr orders by an SQL expression built from the selector.
func byExpr(expr func(s *sql.Selector) string) func(*sql.Selector) {
	return func(s *sql.Selector) { s.OrderExpr(sql.Raw(expr(s))) }
}

// nullsLast orders expr in dir with nulls after every value (both databases accept NULLS LAST).
func nullsLast(expr, dir string) string { return expr + " " + dir + " NULLS LAST" }

// milestoneDue is the due date of the issue's milestone (null without one).
func milestoneDue(s *sql.Selector) string {
	return fmt.Sprintf("(SELECT %s FROM %s WHERE %s = %s)", milestone.FieldDueDate, milestone.Table,
		milestone.FieldID, s.C(issue.FieldMilestoneID))
}

// labelPriority is the highest priority (the lowest number) among the issue's labels, null when
// none has one: GitLab's highest_priority.
func labelPriority(s *sql.Selector) string {
	return fmt.Sprintf("(SELECT MIN(l.%s) FROM %s il JOIN %s l ON l.%s = il.%s WHERE il.%s = %s)",
		label.FieldPriority, issuelabel.Table, label.Table, label.FieldID, issuelabel.FieldLabelID,
		issuelabel.FieldIssueID, s.C(issue.FieldID))
}
