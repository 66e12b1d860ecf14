package mergerequests

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/subscriptions"
)

// Subscribe records the actor's choice to follow (or, with subscribe false, not to follow)
// the merge request iid of project ref. changed is false when the actor's state was already
// that (GitLab answers 304 Not Modified then).
func (s *Service) Subscribe(ctx context.Context, actor *authz.Actor, ref, iid string, subscribe bool) (mr *ent.MergeRequest, level authz.Level, changed bool, err error) {
	mr, level, err = s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return nil, 0, false, err
	}
	now, err := s.subscribed(ctx, actor, mr)
	if err != nil || now == subscribe {
		return mr, level, false, err
	}
	pid := mr.ProjectID
	err = subscriptions.Set(ctx, db.ClientFrom(ctx, s.client), subscriptions.MergeRequest, mr.ID, &pid, actor.UserID(), subscribe)
	return mr, level, err == nil, err
}

// deleteSubscriptions removes the choices about a merge request being deleted.
func deleteSubscriptions(ctx context.Context, c *ent.Client, id int) error {
	return subscriptions.DeleteFor(ctx, c, subscriptions.MergeRequest, id)
}
