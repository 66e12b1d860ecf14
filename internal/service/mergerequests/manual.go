package mergerequests

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/service/resourceevents"
)

// MergedByPush records the open merge request id as merged by a push to its target branch
// that brought its head in through commit (GitLab's post_merge_manually_merged, run by the
// push's refresh job): merged now by the pusher (merged_by and merge_user; none when pusherID
// is nil or the account is gone), merge_commit_sha the commit that merged it, handed to the
// observers as a merge (event, to-dos, webhooks, older versions cleaned) whose state event
// names the commit ("merged manually") or, when a merge request merged here holds that commit,
// that merge request. The issues it closes are closed as after any merge. A merge request no
// longer open is left alone.
func (s *Service) MergedByPush(ctx context.Context, id int, pusherID *int, commit string) error {
	before, err := s.reload(ctx, id)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil || before.State != mergerequest.StateOpened {
		return err
	}
	actor := authz.Anonymous
	if pusherID != nil {
		u, err := s.client.User.Get(ctx, *pusherID)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		if u != nil {
			actor = &authz.Actor{User: u}
		}
	}
	via, err := s.mergedVia(ctx, before, commit)
	if err != nil {
		return err
	}
	var after *ent.MergeRequest
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		up := c.MergeRequest.Update().Where(mergerequest.ID(id), mergerequest.StateEQ(mergerequest.StateOpened)).
			SetState(mergerequest.StateMerged).SetMergedAt(time.Now().UTC().Truncate(time.Millisecond)).
			SetMergeCommitSha(commit).ClearMergeError()
		if !actor.IsAnonymous() {
			up.SetMergedByID(actor.UserID()).SetMergeUserID(actor.UserID())
		}
		n, err := up.Save(ctx)
		if err != nil || n == 0 {
			return err // n == 0: merged or closed meanwhile
		}
		if after, err = s.reload(ctx, id); err != nil {
			return err
		}
		return s.observer.MergeRequestChanged(ctx, actor, Change{Action: ActionMerged, Before: before, After: after, Via: via})
	})
	if err != nil || after == nil {
		return err
	}
	s.closeIssues(ctx, actor, after)
	return nil
}

// mergedVia is what the state event of a merge by push names: a merge request of the project
// merged here whose merge or squash commit is commit (a merge through this server that brought
// mr's head along; the latest merged), else the commit itself.
func (s *Service) mergedVia(ctx context.Context, mr *ent.MergeRequest, commit string) (resourceevents.Source, error) {
	other, err := s.client.MergeRequest.Query().Where(mergerequest.ProjectID(mr.ProjectID),
		mergerequest.IDNEQ(mr.ID), mergerequest.StateEQ(mergerequest.StateMerged),
		mergerequest.Or(mergerequest.MergeCommitSha(commit), mergerequest.SquashCommitSha(commit))).
		Order(ent.Desc(mergerequest.FieldMergedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return resourceevents.Source{Commit: commit}, nil
	}
	if err != nil {
		return resourceevents.Source{}, err
	}
	return resourceevents.Source{MergeRequestID: &other.ID}, nil
}
