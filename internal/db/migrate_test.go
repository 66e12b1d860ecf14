package db_test

import (
	"context"
	"errors"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/db"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// open opens a fresh database (SQLite in a temp dir, or PostgreSQL when configured).
func open(t *testing.T) (*db.DB, string, string) {
	t.Helper()
	url, dir := servertest.Database(t), t.TempDir()
	d, err := db.Open(url, dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	return d, url, dir
}

// TestMigrate_idempotentAndKeepsData migrates twice on one connection and once more on a new
// one; every run succeeds and the rows written in between survive.
func TestMigrate_idempotentAndKeepsData(t *testing.T) {
	ctx := context.Background()
	d, url, dir := open(t)
	require.NoError(t, d.Migrate(ctx))
	u, err := d.Client.User.Create().SetUsername("kept").SetName("Kept").SetEmail("kept@example.com").Save(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Migrate(ctx))
	require.NoError(t, d.Close())

	d2, err := db.Open(url, dir)
	require.NoError(t, err)
	defer d2.Close()
	require.NoError(t, d2.Migrate(ctx))
	got, err := d2.Client.User.Get(ctx, u.ID)
	require.NoError(t, err)
	assert.Equal(t, "kept", got.Username)
	require.NoError(t, d2.Ping(ctx))
	require.NoError(t, d2.Optimize(ctx))
}

// TestWithTx_rollsBackAndNests checks that a failing fn leaves nothing behind and that a nested
// WithTx joins the outer transaction instead of committing on its own.
func TestWithTx_rollsBackAndNests(t *testing.T) {
	ctx := context.Background()
	d, _, _ := open(t)
	require.NoError(t, d.Migrate(ctx))
	boom := errors.New("boom")

	err := db.WithTx(ctx, d.Client, func(ctx context.Context, c *ent.Client) error {
		if _, err := c.User.Create().SetUsername("a").SetEmail("a@example.com").Save(ctx); err != nil {
			return err
		}
		// The nested call sees the outer transaction through ctx and does not commit.
		return db.WithTx(ctx, d.Client, func(ctx context.Context, inner *ent.Client) error {
			assert.Same(t, c, db.ClientFrom(ctx, d.Client), "ClientFrom returns the transaction's client")
			if _, err := inner.User.Create().SetUsername("b").SetEmail("b@example.com").Save(ctx); err != nil {
				return err
			}
			return boom
		})
	})
	require.ErrorIs(t, err, boom)
	n, err := d.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "both writes rolled back")

	require.NoError(t, db.WithTx(ctx, d.Client, func(ctx context.Context, c *ent.Client) error {
		return c.User.Create().SetUsername("c").SetEmail("c@example.com").Exec(ctx)
	}))
	n, err = d.Client.User.Query().Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Same(t, d.Client, db.ClientFrom(ctx, d.Client), "outside a transaction ClientFrom is the base client")
}

// TestMigrate_dropsRetiredIndexes: an index an earlier schema left behind (issue_labels
// (label_id), replaced by (label_id, issue_id)) is dropped by the next migration.
func TestMigrate_dropsRetiredIndexes(t *testing.T) {
	ctx := context.Background()
	d, _, _ := open(t)
	require.NoError(t, d.Migrate(ctx))
	_, err := d.SQL.ExecContext(ctx, "CREATE INDEX issuelabel_label_id ON issue_labels (label_id)")
	require.NoError(t, err)
	exists := func() bool {
		q := "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'issuelabel_label_id'"
		if d.Dialect == "postgres" {
			q = "SELECT COUNT(*) FROM pg_indexes WHERE indexname = 'issuelabel_label_id'"
		}
		var n int
		require.NoError(t, d.SQL.QueryRowContext(ctx, q).Scan(&n))
		return n > 0
	}
	require.True(t, exists())
	require.NoError(t, d.Migrate(ctx))
	assert.False(t, exists())
	require.NoError(t, d.Migrate(ctx), "a no-op once gone")
}
