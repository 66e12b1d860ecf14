package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/db"

	"github.com/stretchr/testify/require"
)

// TestStatementCache_reuseAndOverlap: the same SELECT runs again on one connection while its
// first rows are still open (inside a transaction, which pins one connection), and many
// goroutines share the cache through the pool.
func TestStatementCache_reuseAndOverlap(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open("", t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.Migrate(ctx))
	for i := 0; i < 20; i++ {
		_, err := d.SQL.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES (?, ?)", fmt.Sprintf("k%02d", i), fmt.Sprint(i))
		require.NoError(t, err)
	}
	const q = "SELECT key, value FROM settings WHERE key >= ? ORDER BY key"
	tx, err := d.SQL.BeginTx(ctx, nil)
	require.NoError(t, err)
	outer, err := tx.QueryContext(ctx, q, "k00")
	require.NoError(t, err)
	require.True(t, outer.Next())
	inner, err := tx.QueryContext(ctx, q, "k10")
	require.NoError(t, err)
	var n int
	for inner.Next() {
		n++
	}
	require.NoError(t, inner.Close())
	require.Equal(t, 10, n)
	m := 1
	for outer.Next() {
		m++
	}
	require.NoError(t, outer.Close())
	require.Equal(t, 20, m)
	require.NoError(t, tx.Commit())
	testConcurrentReuse(t, d, "?")
}

// TestStatementCache_acrossTransactions: on PostgreSQL the cached statements are named server-side
// statements; they keep working across transactions that roll back and after a failed query, and
// many goroutines share them through the pool.
func TestStatementCache_acrossTransactions(t *testing.T) {
	ctx := context.Background()
	d, _, _ := open(t)
	require.NoError(t, d.Migrate(ctx))
	ph := func(n int) string {
		if d.Dialect == "postgres" {
			return fmt.Sprintf("$%d", n)
		}
		return "?"
	}
	_, err := d.SQL.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES ("+ph(1)+", "+ph(2)+")", "kept", "1")
	require.NoError(t, err)
	q := "SELECT value FROM settings WHERE key = " + ph(1)
	for round := 0; round < 3; round++ {
		tx, err := d.SQL.BeginTx(ctx, nil)
		require.NoError(t, err)
		var v string
		require.NoError(t, tx.QueryRowContext(ctx, q, "kept").Scan(&v), "round %d", round)
		require.Equal(t, "1", v)
		// A failing statement aborts the transaction; the cached statement must survive it.
		_, err = tx.QueryContext(ctx, "SELECT no_such_column FROM settings WHERE key = "+ph(1), "kept")
		require.Error(t, err)
		require.NoError(t, tx.Rollback())
		require.NoError(t, d.SQL.QueryRowContext(ctx, q, "kept").Scan(&v), "round %d", round)
		require.Equal(t, "1", v)
	}
	for i := 0; i < 20; i++ {
		_, err := d.SQL.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES ("+ph(1)+", "+ph(2)+")", fmt.Sprintf("k%02d", i), fmt.Sprint(i))
		require.NoError(t, err)
	}
	testConcurrentReuse(t, d, ph(1))
}

// testConcurrentReuse reads rows k00..k19 from many goroutines through the pool.
func testConcurrentReuse(t *testing.T, d *db.DB, placeholder string) {
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var v string
				if err := d.SQL.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = "+placeholder, fmt.Sprintf("k%02d", (g+i)%20)).Scan(&v); err != nil {
					t.Error(err)
					return
				}
				if v != fmt.Sprint((g+i)%20) {
					t.Errorf("got %q", v)
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestStatementCache_customPlans: on PostgreSQL a SELECT run with db.WithCustomPlans is not
// prepared into the connection's cache (so PostgreSQL plans it for its arguments every time,
// never with a generic plan), while the same SELECT without it is.
func TestStatementCache_customPlans(t *testing.T) {
	url := servertest.Database(t)
	if url == "" {
		t.Skip("PostgreSQL only: SQLite has no generic plans")
	}
	ctx := context.Background()
	d, err := db.Open(url, t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	conn, err := d.SQL.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	prepared := func(q string) bool {
		var n int
		require.NoError(t, conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", q).Scan(&n))
		return n > 0
	}
	const q = "SELECT $1::int + 1"
	var got int
	for i := 0; i < 7; i++ {
		require.NoError(t, conn.QueryRowContext(db.WithCustomPlans(ctx), q, i).Scan(&got))
		require.Equal(t, i+1, got)
	}
	require.False(t, prepared(q), "bypassed the cache")
	require.NoError(t, conn.QueryRowContext(ctx, q, 1).Scan(&got))
	require.True(t, prepared(q), "cached without WithCustomPlans")
}
