package containerregistry

import (
	"context"
	"fmt"

	"anvil/ent"
)

// Run works one of this domain's jobs.
func (s *Service) Run(ctx context.Context, job Job) error {
	switch j := job.(type) {
	case DeleteRepositoryJob:
		return s.DeleteRepository(ctx, j)
	case CleanupTagsJob:
		return s.CleanupTags(ctx, j)
	case DeleteImagesJob:
		return s.DeleteImages(ctx, j)
	case GarbageCollectJob:
		return s.GarbageCollect(ctx, j)
	}
	return fmt.Errorf("container registry: unknown job %T", job)
}

// InlineJobs runs the domain's jobs in the process, right after the transaction that queued
// them commits (at once outside one). It stands in for the durable job queue (internal/jobs)
// until that is wired in: the jobs are idempotent and read their subject afresh, so moving them
// to the queue changes when they run, not what they do. Garbage collection, which walks the
// whole storage, is left to the queue's periodic run: inline it would hold up the request that
// queued it.
type InlineJobs struct{ Service *Service }

// Enqueue runs job after the transaction in ctx commits.
func (q *InlineJobs) Enqueue(ctx context.Context, job Job) error {
	if _, gc := job.(GarbageCollectJob); gc {
		return nil
	}
	run := func() {
		if err := q.Service.Run(context.Background(), job); err != nil {
			q.Service.Log.Error("container registry job", "kind", job.Kind(), "err", err)
		}
	}
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		run()
		return nil
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				run()
			}
			return err
		})
	})
	return nil
}
