package db_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"anvil/internal/db"

	"github.com/stretchr/testify/require"
)

// TestTraceStatements: the tracer sees each statement with its arguments and whether it ran
// with custom plans, and nothing once stopped.
func TestTraceStatements(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open("", t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	var (
		mu   sync.Mutex
		seen []db.Statement
	)
	stop := db.TraceStatements(func(s db.Statement) {
		if strings.Contains(s.Query, " t ") { // this test's, not another open database's upkeep
			mu.Lock()
			seen = append(seen, s)
			mu.Unlock()
		}
	})
	_, err = d.SQL.ExecContext(ctx, "CREATE TABLE t (x INTEGER)")
	require.NoError(t, err)
	rows, err := d.SQL.QueryContext(db.WithCustomPlans(ctx), "SELECT x FROM t WHERE x = ?", 7)
	require.NoError(t, err)
	require.NoError(t, rows.Close())
	stop()
	_, err = d.SQL.ExecContext(ctx, "DROP TABLE t")
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []db.Statement{
		{Query: "CREATE TABLE t (x INTEGER)", Args: []any{}},
		{Query: "SELECT x FROM t WHERE x = ?", Args: []any{int64(7)}, CustomPlans: true},
	}, seen)
}
