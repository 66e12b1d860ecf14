package jobs

import (
	"context"
	"fmt"
	"strings"

	"github.com/riverqueue/river"
)

// outboxBatch is how many outbox rows one move reads.
const outboxBatch = 100

// move moves waiting outbox rows of the given kinds into River in one transaction of River's
// driver: the jobs are inserted and the rows deleted together, so a crash at any point leaves
// each job either still in the outbox or queued in River, never both and never neither. On
// PostgreSQL, replicas moving at once skip each other's rows (FOR UPDATE SKIP LOCKED); SQLite
// has one writer at a time (its transactions are immediate).
func (e *riverEngine[TTx]) move(ctx context.Context, kinds []string, limit int) (int, error) {
	if len(kinds) == 0 {
		return 0, nil
	}
	tx, err := e.begin(ctx)
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			_ = e.rollback(context.WithoutCancel(ctx), tx)
		}
	}()
	sel, args := e.selectOutbox(kinds, limit)
	rows, err := e.query(ctx, tx, sel, args...)
	if err != nil {
		return 0, err
	}
	var (
		ids    []int64
		params []river.InsertManyParams // the decoded rows, in order
	)
	for rows.Next() {
		var (
			id        int64
			kind, raw string
		)
		if err := rows.Scan(&id, &kind, &raw); err != nil {
			_ = rows.Close()
			return 0, err
		}
		ids = append(ids, id)
		a, err := e.decode(kind, []byte(raw))
		if err != nil {
			// A row that cannot be decoded would be read again forever: drop it, loudly.
			e.log.ErrorContext(ctx, "dropping undecodable background job", "kind", kind, "outbox_id", id, "err", err)
			continue
		}
		params = append(params, river.InsertManyParams{Args: a})
	}
	if err := rows.Err(); err != nil {
		_ = rows.Close()
		return 0, err
	}
	_ = rows.Close()
	if len(ids) == 0 {
		return 0, nil
	}
	// One insert per job: a batch holding two copies of a unique job would make PostgreSQL's
	// upsert touch one row twice, which it refuses; one after the other, the second is
	// skipped as the duplicate it is.
	for _, p := range params {
		if _, err := e.client.InsertTx(ctx, tx, p.Args, nil); err != nil {
			return 0, fmt.Errorf("queue outbox job %s: %w", p.Args.Kind(), err)
		}
	}
	del, dargs := e.deleteOutbox(ids)
	if err := e.exec(ctx, tx, del, dargs...); err != nil {
		return 0, err
	}
	if err := e.commit(ctx, tx); err != nil {
		return 0, err
	}
	done = true
	return len(ids), nil
}

// selectOutbox is the statement reading the oldest waiting rows of kinds.
func (e *riverEngine[TTx]) selectOutbox(kinds []string, limit int) (string, []any) {
	if !e.sqlite {
		return "SELECT id, kind, args FROM job_outbox WHERE kind = ANY($1) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED",
			[]any{kinds, limit}
	}
	args := make([]any, 0, len(kinds)+1)
	for _, k := range kinds {
		args = append(args, k)
	}
	return "SELECT id, kind, args FROM job_outbox WHERE kind IN (" + placeholders(len(kinds)) + ") ORDER BY id LIMIT ?",
		append(args, limit)
}

// deleteOutbox is the statement deleting the moved rows.
func (e *riverEngine[TTx]) deleteOutbox(ids []int64) (string, []any) {
	if !e.sqlite {
		return "DELETE FROM job_outbox WHERE id = ANY($1)", []any{ids}
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return "DELETE FROM job_outbox WHERE id IN (" + placeholders(len(ids)) + ")", args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}
