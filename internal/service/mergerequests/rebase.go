package mergerequests

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
)

// GitLab's answers about a rebase.
const (
	msgCannotPushSource = "Cannot push to source branch"
	msgSourceMissing    = "Source branch does not exist"
	// msgRebaseFailed is the merge_error of a rebase that met conflicts.
	msgRebaseFailed = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch."
	// msgRebaseBusy answers a rebase while another one (or a push) moves the source branch.
	msgRebaseBusy = "Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later."
)

// Rebase is PUT /projects/:id/merge_requests/:merge_request_iid/rebase: the source branch's
// commits replayed onto the target branch's tip without a work tree (git.Repository.Rebase),
// the source branch moved to the result (a force push by the actor, recorded as such) and
// rebase_commit_sha stored. GitLab queues the rebase and answers 202 at once; Anvil rebases
// before answering the same 202, so a client polling for rebase_in_progress sees it done. A
// conflict leaves the branch alone and sets merge_error (GitLab's "Rebase failed: ..."), still
// 202. Refusals: 403 "Source branch does not exist", 403 "Cannot push to source branch"; 409
// when the source branch moves during the rebase (another rebase or a push: one wins).
func (s *Service) Rebase(ctx context.Context, actor *authz.Actor, ref, iid string, skipCI bool) error {
	_ = skipCI // no pipelines run here
	mr, _, err := s.Find(ctx, actor, ref, iid, authz.ReadMergeRequest)
	if err != nil {
		return err
	}
	st, err := s.branchState(ctx, mr)
	if err != nil {
		return err
	}
	if st.sourceTip == "" {
		return apperr.Forbidden(msgSourceMissing)
	}
	if err := s.canPushSource(ctx, actor, mr, st); err != nil {
		return err
	}
	if st.targetTip == "" {
		return s.rebaseFailed(ctx, mr, msgRebaseFailed)
	}
	if st.fork() {
		// The fork needs the target's commits to replay onto them.
		if err := st.sourceRepo.FetchFrom(ctx, st.targetRepo, git.FetchOptions{Objects: []git.ObjectID{st.targetTip}}); err != nil {
			return err
		}
	}
	res, err := st.sourceRepo.Rebase(ctx, git.RebaseOptions{Head: st.sourceTip, Onto: st.targetTip, Committer: signature(actor.User)})
	if errors.Is(err, git.ErrConflict) || errors.Is(err, git.ErrUnrelatedHistories) {
		return s.rebaseFailed(ctx, mr, msgRebaseFailed)
	}
	if err != nil {
		return err
	}
	if res.Head != st.sourceTip {
		err := s.repos.UpdateRefs(ctx, actor, st.source, st.sourceRepo, false,
			git.RefUpdate{Name: git.BranchRef(mr.SourceBranch), NewOID: res.Head, OldOID: st.sourceTip})
		if errors.Is(err, git.ErrStaleRef) {
			return apperr.Conflict(msgRebaseBusy)
		}
		if err != nil {
			return err
		}
	}
	return db.ClientFrom(ctx, s.client).MergeRequest.UpdateOneID(mr.ID).SetRebaseCommitSha(string(res.Head)).
		ClearMergeError().SetMergeStatus(StatusUnchecked).SetUpdatedAt(mr.UpdatedAt).Exec(ctx)
}

// canPushSource is GitLab's authorize_push_to_merge_request!: push access to the source
// branch in the source project, else 403 "Cannot push to source branch".
func (s *Service) canPushSource(ctx context.Context, actor *authz.Actor, mr *ent.MergeRequest, st branchState) error {
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	if err := s.policy.Project(ctx, actor, st.source, authz.PushCode); err != nil {
		if apperr.Is(err, apperr.KindForbidden, apperr.KindUnauthorized, apperr.KindNotFound) {
			return apperr.Forbidden(msgCannotPushSource)
		}
		return err
	}
	if err := s.protected.CanPush(ctx, actor, st.source, mr.SourceBranch); err != nil {
		if apperr.Is(err, apperr.KindForbidden) {
			return apperr.Forbidden(msgCannotPushSource)
		}
		return err
	}
	return nil
}

// rebaseFailed records why a rebase did not happen; the request itself was accepted.
func (s *Service) rebaseFailed(ctx context.Context, mr *ent.MergeRequest, reason string) error {
	return db.ClientFrom(ctx, s.client).MergeRequest.UpdateOneID(mr.ID).SetMergeError(reason).
		SetUpdatedAt(mr.UpdatedAt).Exec(ctx)
}
