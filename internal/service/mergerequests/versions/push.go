package versions

import (
	"context"
	"errors"
	"strings"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/mergerequestdiffcommit"
	"anvil/ent/pushevent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/jobs"
	"anvil/internal/service/wire"
)

// PushObserver is the repository service's push observer for merge requests (run in the
// push's transaction): a moved source branch queues a new diff version of every open merge
// request from it (RefreshJob), a moved target branch queues the check whether the merge
// requests into it need one (TargetRefreshJob), and either sends their merge status back to
// unchecked. It needs only the database and the queue, so it exists before the
// repository service that calls it.
type PushObserver struct {
	client *ent.Client
	jobs   jobs.Enqueuer
}

// NewPushObserver returns the observer.
func NewPushObserver(client *ent.Client, q jobs.Enqueuer) *PushObserver {
	wire.Require("merge request push observer", wire.D("client", client), wire.D("jobs", q))
	return &PushObserver{client: client, jobs: q}
}

// PushRecorded implements repos.PushObserver.
func (o *PushObserver) PushRecorded(ctx context.Context, actor *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error {
	c := db.ClientFrom(ctx, o.client)
	for _, push := range pushes {
		branch, ok := strings.CutPrefix(push.Ref, git.BranchPrefix)
		if push.RefType != pushevent.RefTypeBranch || !ok || push.Action == pushevent.ActionRemoved {
			continue
		}
		sources, err := c.MergeRequest.Query().Where(mergerequest.SourceProjectID(p.ID),
			mergerequest.SourceBranch(branch), mergerequest.StateEQ(mergerequest.StateOpened)).IDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range sources {
			if err := o.jobs.Enqueue(ctx, RefreshJob{MergeRequestID: id, Sha: push.After, PusherID: actorID(actor)}); err != nil {
				return err
			}
		}
		// Open merge requests into the branch: their version follows the target only when GitLab's
		// refresh reloads their diff (TargetRefreshJob decides, with git).
		targets, err := c.MergeRequest.Query().Where(mergerequest.ProjectID(p.ID),
			mergerequest.TargetBranch(branch), mergerequest.StateEQ(mergerequest.StateOpened)).IDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range targets {
			if err := o.jobs.Enqueue(ctx, TargetRefreshJob{MergeRequestID: id, Before: push.Before, After: push.After,
				PusherID: actorID(actor)}); err != nil {
				return err
			}
		}
		// Whatever moved, the mergeability of the merge requests on either side is unknown again.
		if _, err := c.MergeRequest.Update().Where(mergerequest.StateEQ(mergerequest.StateOpened),
			mergerequest.Or(
				mergerequest.And(mergerequest.SourceProjectID(p.ID), mergerequest.SourceBranch(branch)),
				mergerequest.And(mergerequest.ProjectID(p.ID), mergerequest.TargetBranch(branch)),
			), mergerequest.MergeStatusNEQ("unchecked")).
			SetMergeStatus("unchecked").Save(ctx); err != nil {
			return err
		}
	}
	return nil
}

// RefreshJob records a new diff version of a merge request whose source branch moved to Sha.
type RefreshJob struct {
	MergeRequestID int    `json:"merge_request_id"`
	Sha            string `json:"sha"`
	// PusherID is who pushed (the added commits' system note), nil when unknown.
	PusherID *int `json:"pusher_id,omitempty"`
}

// Kind names the job.
func (RefreshJob) Kind() string { return "merge_request_refresh" }

// InsertOpts drop a second refresh for the same push while the first waits or runs.
func (RefreshJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued(), MaxAttempts: 5}
}

// RunRefresh works a RefreshJob: a merge request that is gone, no longer open or without its
// source branch needs nothing.
func (s *Service) RunRefresh(ctx context.Context, j RefreshJob) error {
	mr, err := s.client.MergeRequest.Get(ctx, j.MergeRequestID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if mr.State != mergerequest.StateOpened {
		return nil
	}
	_, err = s.Record(ctx, mr, j.PusherID)
	if errors.Is(err, ErrNoSource) {
		return nil
	}
	return err
}

// TargetRefreshJob looks at an open merge request whose target branch moved from Before to
// After, as GitLab's RefreshService does for the merge requests into a pushed branch: their
// merge status is rechecked (PushRecorded did that), and their diff is reloaded (a new
// version, its base and start moved) only when the push was a force push or brought some of
// the merge request's commits into the target (merged by hand, in part or whole). An ordinary
// push to the target records no version: the latest one keeps its base until the source moves.
type TargetRefreshJob struct {
	MergeRequestID int    `json:"merge_request_id"`
	Before         string `json:"before"`
	After          string `json:"after"`
	PusherID       *int   `json:"pusher_id,omitempty"`
}

// Kind names the job.
func (TargetRefreshJob) Kind() string { return "merge_request_target_refresh" }

// InsertOpts retry a failed check a few times.
func (TargetRefreshJob) InsertOpts() jobs.InsertOpts { return jobs.InsertOpts{MaxAttempts: 5} }

// RunTargetRefresh works a TargetRefreshJob.
func (s *Service) RunTargetRefresh(ctx context.Context, j TargetRefreshJob) error {
	mr, err := s.client.MergeRequest.Get(ctx, j.MergeRequestID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil || mr.State != mergerequest.StateOpened || mr.LatestDiffID == nil {
		return err
	}
	// A push that merged it by hand ends it first, so it gets no empty version.
	merged, err := s.mergeByPush(ctx, mr, j)
	if err != nil || merged {
		return err
	}
	reload, err := s.targetMoveReloads(ctx, mr, j)
	if err != nil || !reload {
		return err
	}
	_, err = s.Record(ctx, mr, j.PusherID)
	if errors.Is(err, ErrNoSource) {
		return nil
	}
	return err
}

// mergeByPush hands mr to the merged observer when the push brought the latest version's head
// into the target (GitLab's post_merge_manually_merged: the head is among the pushed commits,
// and the version is not empty), with the commit that merged it, and reports whether it did.
func (s *Service) mergeByPush(ctx context.Context, mr *ent.MergeRequest, j TargetRefreshJob) (bool, error) {
	if s.merged == nil || mr.SourceProjectID == nil {
		return false, nil // GitLab leaves merge requests whose source project is gone alone
	}
	latest, err := s.client.MergeRequestDiff.Get(ctx, *mr.LatestDiffID)
	if err != nil || latest.HeadCommitSha == nil || latest.State == StateEmpty {
		return false, err
	}
	repo, err := s.targetRepository(ctx, mr)
	if err != nil {
		return false, err
	}
	commit, ok, err := repo.MergedBy(ctx, *latest.HeadCommitSha, j.Before, j.After)
	if errors.Is(err, git.ErrReferenceNotFound) || errors.Is(err, git.ErrObjectNotFound) {
		return false, nil // a commit gone (a later force push) merges nothing
	}
	if err != nil || !ok {
		return false, err
	}
	return true, s.merged(ctx, mr.ID, j.PusherID, string(commit))
}

// targetRepository opens the repository of mr's target project.
func (s *Service) targetRepository(ctx context.Context, mr *ent.MergeRequest) (*git.Repository, error) {
	target, err := s.client.Project.Get(ctx, mr.ProjectID)
	if err != nil {
		return nil, err
	}
	return s.repos.Repository(target)
}

// targetMoveReloads reports whether the target's move asks for a new version: a force push
// (Before is not an ancestor of After), or a merge base of the source head and After that is one
// of the latest version's commits (so After contains some of them).
func (s *Service) targetMoveReloads(ctx context.Context, mr *ent.MergeRequest, j TargetRefreshJob) (bool, error) {
	repo, err := s.targetRepository(ctx, mr)
	if err != nil {
		return false, err
	}
	if j.Before != string(git.ZeroOID) && j.After != string(git.ZeroOID) {
		ff, err := repo.IsAncestor(ctx, j.Before, j.After)
		if err != nil && !errors.Is(err, git.ErrObjectNotFound) {
			return false, err
		}
		if !ff {
			return true, nil
		}
	}
	latest, err := s.client.MergeRequestDiff.Get(ctx, *mr.LatestDiffID)
	if err != nil || latest.HeadCommitSha == nil {
		return false, err
	}
	mb, err := repo.MergeBase(ctx, *latest.HeadCommitSha, j.After)
	if errors.Is(err, git.ErrUnrelatedHistories) || errors.Is(err, git.ErrObjectNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if latest.BaseCommitSha != nil && string(mb) == *latest.BaseCommitSha {
		return false, nil
	}
	return s.client.MergeRequestDiffCommit.Query().Where(mergerequestdiffcommit.MergeRequestDiffID(latest.ID),
		mergerequestdiffcommit.Sha(string(mb))).Exist(ctx)
}
