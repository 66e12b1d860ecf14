package db_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

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

	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var v string
				if err := d.SQL.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", fmt.Sprintf("k%02d", (g+i)%20)).Scan(&v); err != nil {
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
