package db_test

import (
	"context"
	"testing"

	"anvil/internal/db"

	"github.com/stretchr/testify/require"
)

// TestOptimize_givesSQLitePlannerStatistics: without statistics SQLite plans listings as a sort
// of every visible row; Migrate and Optimize must leave sqlite_stat1 in place.
func TestOptimize_givesSQLitePlannerStatistics(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open("", t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.Migrate(ctx))
	for i := 0; i < 50; i++ {
		_, err := d.SQL.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES (?, '1')", "k"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		require.NoError(t, err)
	}
	require.NoError(t, d.Optimize(ctx))
	var n int
	require.NoError(t, d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").Scan(&n))
	require.Equal(t, 1, n)
	require.NoError(t, d.Close())
	require.NoError(t, d.Close(), "closing twice is harmless")
}
