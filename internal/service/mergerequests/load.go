package mergerequests

import (
	"fmt"

	"anvil/ent"
	"anvil/ent/awardemoji"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestassignee"
	"anvil/ent/mergerequestdiff"
	"anvil/ent/mergerequestlabel"
	"anvil/ent/mergerequestreviewer"

	"entgo.io/ent/dialect/sql"
)

// Load eager-loads what the presenter shows of a merge request: its people (author, assignees,
// reviewers, merged_by, closed_by, merge_user), labels (by title), milestone, target and source
// projects with their namespaces, the latest diff version (diff_refs, changes_count; in
// Edges.Diffs, at most one) and the upvotes and downvotes (Votes).
func Load(q *ent.MergeRequestQuery) *ent.MergeRequestQuery {
	return withVotes(q).WithAuthor().WithMergedBy().WithClosedBy().WithMergeUser().
		WithMilestone(func(mq *ent.MilestoneQuery) { mq.WithGroup() }).
		WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		WithSourceProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() }).
		WithLabelLinks(func(lq *ent.MergeRequestLabelQuery) {
			lq.WithLabel().Order(mergerequestlabel.ByLabelField("title"))
		}).
		WithAssigneeLinks(func(aq *ent.MergeRequestAssigneeQuery) {
			aq.WithUser().Order(mergerequestassignee.ByID())
		}).
		WithReviewerLinks(func(rq *ent.MergeRequestReviewerQuery) {
			rq.WithUser().Order(mergerequestreviewer.ByID())
		}).
		WithDiffs(func(dq *ent.MergeRequestDiffQuery) { dq.Where(latestDiff()) })
}

// latestDiff selects the diff versions that are their merge request's latest_diff_id.
func latestDiff() func(*sql.Selector) {
	return func(s *sql.Selector) {
		t := sql.Table(mergerequest.Table)
		s.Where(sql.Exists(sql.Select(t.C(mergerequest.FieldID)).From(t).Where(sql.And(
			sql.ColumnsEQ(t.C(mergerequest.FieldID), s.C(mergerequestdiff.FieldMergeRequestID)),
			sql.ColumnsEQ(t.C(mergerequest.FieldLatestDiffID), s.C(mergerequestdiff.FieldID))))))
	}
}

// LatestDiff is the latest diff version Load read, or nil before the first is recorded.
func LatestDiff(mr *ent.MergeRequest) *ent.MergeRequestDiff {
	for _, d := range mr.Edges.Diffs {
		if mr.LatestDiffID != nil && d.ID == *mr.LatestDiffID {
			return d
		}
	}
	return nil
}

// The voting emoji (GitLab's upvotes and downvotes) and the columns Load selects their counts
// into.
const (
	thumbsUp        = "thumbsup"
	thumbsDown      = "thumbsdown"
	upvotesColumn   = "upvotes"
	downvotesColumn = "downvotes"
)

// awardCount is the number of awards named name on the selector's merge request: a correlated
// count over the (awardable_type, awardable_id, name) index. The names are constants.
func awardCount(s *sql.Selector, name string) string {
	return fmt.Sprintf("(SELECT COUNT(*) FROM %s WHERE %s = 'MergeRequest' AND %s = %s AND %s = '%s')",
		awardemoji.Table, awardemoji.FieldAwardableType, awardemoji.FieldAwardableID, s.C(mergerequest.FieldID),
		awardemoji.FieldName, name)
}

// withVotes selects each merge request's upvotes and downvotes beside its columns.
func withVotes(q *ent.MergeRequestQuery) *ent.MergeRequestQuery {
	q.Modify(func(s *sql.Selector) {
		s.AppendSelectExprAs(sql.Raw(awardCount(s, thumbsUp)), upvotesColumn).
			AppendSelectExprAs(sql.Raw(awardCount(s, thumbsDown)), downvotesColumn)
	})
	return q
}

// Votes returns the merge request's upvotes and downvotes as Load selected them; 0 for one
// read otherwise.
func Votes(mr *ent.MergeRequest) (up, down int) {
	return selectedInt(mr, upvotesColumn), selectedInt(mr, downvotesColumn)
}

func selectedInt(mr *ent.MergeRequest, column string) int {
	v, err := mr.Value(column)
	if err != nil {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	case []byte:
		var i int
		_, _ = fmt.Sscan(string(n), &i)
		return i
	}
	return 0
}
