// Package iids hands out internal ids (iid): numbers counting from 1 within a project or a
// group for one usage (issues, milestones, and later merge requests and epics), as GitLab's
// InternalId does. Each (usage, scope) has one counter row that only grows: the next iid is
// taken by incrementing the row inside the caller's transaction, so concurrent creators queue
// on the row (PostgreSQL's row lock, SQLite's single writer) and an iid is never handed out
// twice, not even after the record holding it is deleted.
package iids

import (
	"context"
	"errors"
	"fmt"

	"anvil/ent"
	"anvil/ent/internalid"
	"anvil/internal/db"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Usage names what an iid numbers.
type Usage string

// The usages.
const (
	Issues        Usage = "issues"
	Milestones    Usage = "milestones"
	Epics         Usage = "epics"
	MergeRequests Usage = "merge_requests"
)

// Scope is the project or the group an iid counts in; exactly one is non-zero.
type Scope struct {
	ProjectID   int
	NamespaceID int
}

// Project is the scope of a project.
func Project(id int) Scope { return Scope{ProjectID: id} }

// Group is the scope of a group.
func Group(id int) Scope { return Scope{NamespaceID: id} }

// Seed returns the greatest iid already used in a scope that has no counter yet (records
// written before counters existed, or imported ones); nil means zero.
type Seed func(ctx context.Context, c *ent.Client) (int, error)

// Next returns the next iid of usage in scope. It must run in the transaction that creates the
// record (db.WithTx): the counter's increment commits or rolls back with it.
func Next(ctx context.Context, base *ent.Client, usage Usage, scope Scope, seed Seed) (int, error) {
	if ent.TxFromContext(ctx) == nil {
		return 0, errors.New("iids.Next outside a transaction")
	}
	if (scope.ProjectID == 0) == (scope.NamespaceID == 0) {
		return 0, fmt.Errorf("iids.Next: scope %+v names neither or both of a project and a group", scope)
	}
	c := db.ClientFrom(ctx, base)
	d := dialect.SQLite
	if db.Networked(base) {
		d = dialect.Postgres
	}
	for attempt := 0; attempt < 2; attempt++ {
		v, ok, err := increment(ctx, c, d, usage, scope)
		if err != nil || ok {
			return v, err
		}
		// No counter yet: create it at the seed. A concurrent creator may win the insert;
		// ON CONFLICT DO NOTHING lets both go on to the increment.
		start := 0
		if seed != nil {
			if start, err = seed(ctx, c); err != nil {
				return 0, err
			}
		}
		cols := []string{internalid.FieldUsage, internalid.FieldLastValue, scopeColumn(scope)}
		ins := sql.Dialect(d).Insert(internalid.Table).Columns(cols...).
			Values(string(usage), start, scopeValue(scope)).OnConflict(sql.DoNothing())
		q, args := ins.Query()
		if _, err := c.ExecContext(ctx, q, args...); err != nil {
			return 0, fmt.Errorf("create iid counter: %w", err)
		}
	}
	return 0, errors.New("iid counter missing after creation")
}

// increment adds one to the counter and returns the new value; ok is false without a counter.
func increment(ctx context.Context, c *ent.Client, d string, usage Usage, scope Scope) (int, bool, error) {
	up := sql.Dialect(d).Update(internalid.Table).Add(internalid.FieldLastValue, 1).
		Where(sql.And(sql.EQ(internalid.FieldUsage, string(usage)), sql.EQ(scopeColumn(scope), scopeValue(scope)))).
		Returning(internalid.FieldLastValue)
	q, args := up.Query()
	rows, err := c.QueryContext(ctx, q, args...)
	if err != nil {
		return 0, false, fmt.Errorf("increment iid counter: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return 0, false, rows.Err()
	}
	var v int
	if err := rows.Scan(&v); err != nil {
		return 0, false, err
	}
	return v, true, rows.Close()
}

func scopeColumn(s Scope) string {
	if s.ProjectID != 0 {
		return internalid.FieldProjectID
	}
	return internalid.FieldNamespaceID
}

func scopeValue(s Scope) int {
	if s.ProjectID != 0 {
		return s.ProjectID
	}
	return s.NamespaceID
}
