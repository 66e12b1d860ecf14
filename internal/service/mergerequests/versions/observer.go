package versions

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/ent/mergerequestdiff"
	"anvil/ent/mergerequestdifffile"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/mergerequests"
)

// Observer records the first diff version of a merge request in its creation's transaction,
// so the created merge request answers with its diff_refs and changes_count, and deletes the
// files of a merged merge request's older versions in its merge's transaction (Clean).
func (s *Service) Observer() mergerequests.Observer { return createdObserver{s} }

type createdObserver struct{ s *Service }

// MergeRequestChanged implements mergerequests.Observer.
func (o createdObserver) MergeRequestChanged(ctx context.Context, actor *authz.Actor, ch mergerequests.Change) error {
	if ch.Action == mergerequests.ActionMerged && ch.After != nil {
		return o.s.Clean(ctx, ch.After)
	}
	if ch.Action != mergerequests.ActionCreated || ch.After == nil {
		return nil
	}
	_, err := o.s.Record(ctx, ch.After, actorID(actor))
	if errors.Is(err, ErrNoSource) {
		return nil // the creation checked the branch; a race leaves the merge request without a version
	}
	return err
}

// actorID is the actor's user id, nil for none.
func actorID(a *authz.Actor) *int {
	if a == nil || a.IsAnonymous() {
		return nil
	}
	id := a.User.ID
	return &id
}

// Clean deletes the stored files of mr's versions but the latest and marks them without_files
// (GitLab's DeleteNonLatestDiffsService after a merge: the older versions keep their commits
// and refs; their files are read no more). Versions without files are left as they are.
func (s *Service) Clean(ctx context.Context, mr *ent.MergeRequest) error {
	c := db.ClientFrom(ctx, s.client)
	q := c.MergeRequestDiff.Query().Where(mergerequestdiff.MergeRequestID(mr.ID),
		mergerequestdiff.StateNotIn(StateWithoutFiles, StateEmpty))
	if mr.LatestDiffID != nil {
		q.Where(mergerequestdiff.IDNEQ(*mr.LatestDiffID))
	}
	ids, err := q.IDs(ctx)
	if err != nil || len(ids) == 0 {
		return err
	}
	if _, err := c.MergeRequestDiffFile.Delete().Where(mergerequestdifffile.MergeRequestDiffIDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	return c.MergeRequestDiff.Update().Where(mergerequestdiff.IDIn(ids...)).SetState(StateWithoutFiles).Exec(ctx)
}
