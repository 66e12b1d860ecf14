package events

import (
	"context"
	"time"

	"anvil/ent/event"
	"anvil/ent/pusheventpayload"
	"anvil/internal/db"
)

// Retention is how long events are kept: GitLab removes events older than three years.
const Retention = 3 * 365 * 24 * time.Hour

// pruneBatch bounds one deletion statement, so that pruning a large backlog never holds a
// long lock on the table.
const pruneBatch = 10000

// PruneOlderThan deletes the events created before cutoff (and their push payloads), in
// batches, and returns how many went. It is the body of the periodic pruning job (cutoff:
// now minus Retention); running it again removes nothing more.
func (s *Service) PruneOlderThan(ctx context.Context, cutoff time.Time) (int, error) {
	total := 0
	for {
		c := db.ClientFrom(ctx, s.client)
		ids, err := c.Event.Query().Where(event.CreatedAtLT(cutoff)).Order(event.ByID()).Limit(pruneBatch).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		// Payloads first, explicitly: pruning does not lean on the foreign key's cascade.
		if _, err := c.PushEventPayload.Delete().Where(pusheventpayload.EventIDIn(ids...)).Exec(ctx); err != nil {
			return total, err
		}
		n, err := c.Event.Delete().Where(event.IDIn(ids...)).Exec(ctx)
		if err != nil {
			return total, err
		}
		total += n
		if len(ids) < pruneBatch {
			return total, nil
		}
	}
}
