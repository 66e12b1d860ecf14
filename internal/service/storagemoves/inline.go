package storagemoves

import (
	"context"

	"anvil/ent"
	"anvil/ent/projectrepositorystoragemove"
)

// InlineScheduler runs moves in the process, right after the transaction that scheduled them
// commits (at once outside one). It stands in for the durable job queue (internal/jobs) until
// that is on main: Run is idempotent and resumes from the recorded state, so moving it to the
// queue changes when moves run, not what they do. Unlike a queued job, a move interrupted by a
// crash waits for Resume at the next start.
type InlineScheduler struct{ Service *Service }

// ScheduleStorageMove implements Scheduler.
func (q *InlineScheduler) ScheduleStorageMove(ctx context.Context, moveID int) error {
	run := func() {
		if err := q.Service.Run(context.Background(), moveID); err != nil {
			q.Service.log.Error("repository storage move", "move_id", moveID, "err", err)
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

// Resume schedules again every move a crash left unfinished (scheduled, started or
// replicated). The server calls it at start while moves run inline.
func (s *Service) Resume(ctx context.Context) error {
	ids, err := s.client.ProjectRepositoryStorageMove.Query().
		Where(projectrepositorystoragemove.StateIn(stateScheduled, stateStarted, stateReplicated)).
		Order(ent.Asc(projectrepositorystoragemove.FieldID)).IDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.scheduler.ScheduleStorageMove(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
