package versions

import (
	"context"
	"errors"
	"strings"

	"anvil/ent"
	"anvil/ent/mergerequest"
	"anvil/ent/pushevent"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/jobs"
	"anvil/internal/service/wire"
)

// PushObserver is the repository service's push observer for merge requests (run in the
// push's transaction): a moved source branch queues a new diff version of every open merge
// request from it (RefreshJob), and a moved source or target branch sends their merge status
// back to unchecked. It needs only the database and the queue, so it exists before the
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
func (o *PushObserver) PushRecorded(ctx context.Context, _ *authz.Actor, p *ent.Project, pushes []*ent.PushEvent) error {
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
			if err := o.jobs.Enqueue(ctx, RefreshJob{MergeRequestID: id, Sha: push.After}); err != nil {
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
	_, err = s.Record(ctx, mr)
	if errors.Is(err, ErrNoSource) {
		return nil
	}
	return err
}
