package notes

import (
	"context"

	"anvil/ent/note"
	"anvil/internal/db"

	"entgo.io/ent/dialect/sql"
)

// UnresolvedThreads counts the unresolved threads of each merge request of ids (a thread is
// unresolved while one of its resolvable notes is: GitLab's to_be_resolved discussions), for
// blocking_discussions_resolved and the mergeability check (merge requests whose project has
// only_allow_merge_if_all_discussions_are_resolved). Merge requests without any are absent.
func (s *Service) UnresolvedThreads(ctx context.Context, ids ...int) (map[int]int, error) {
	out := map[int]int{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		NoteableID int `json:"noteable_id"`
		Count      int `json:"count"`
	}
	err := db.ClientFrom(ctx, s.client).Note.Query().
		Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.NoteableIDIn(ids...),
			note.Resolvable(true), note.ResolvedAtIsNil()).
		GroupBy(note.FieldNoteableID).
		Aggregate(func(sel *sql.Selector) string {
			return sql.As("COUNT(DISTINCT "+sel.C(note.FieldDiscussionID)+")", "count")
		}).Scan(ctx, &rows)
	for _, r := range rows {
		out[r.NoteableID] = r.Count
	}
	return out, err
}

// BlockingDiscussionsResolved is GitLab's blocking_discussions_resolved of one merge request
// (its row id): true unless its project only merges once every thread is resolved
// (onlyIfResolved) and one is not.
func (s *Service) BlockingDiscussionsResolved(ctx context.Context, mergeRequestID int, onlyIfResolved bool) (bool, error) {
	if !onlyIfResolved {
		return true, nil
	}
	n, err := s.UnresolvedThreads(ctx, mergeRequestID)
	return n[mergeRequestID] == 0, err
}
