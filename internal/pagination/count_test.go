package pagination_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"

	"anvil/ent/predicate"
	"anvil/ent/setting"
	"anvil/internal/db"
	"anvil/internal/pagination"

	"github.com/stretchr/testify/require"
)

// TestCountAtMost counts inside the database, never past the limit, with the query's predicates
// applied — on SQLite, and on PostgreSQL when ANVIL_TEST_DATABASE_URL is set.
func TestCountAtMost(t *testing.T) {
	ctx := context.Background()
	url := ""
	if base := os.Getenv("ANVIL_TEST_DATABASE_URL"); base != "" {
		admin, err := sql.Open("postgres", base)
		require.NoError(t, err)
		name := fmt.Sprintf("anvil_count_%d", os.Getpid())
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name)
		_, err = admin.Exec("CREATE DATABASE " + name)
		require.NoError(t, err)
		t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); admin.Close() })
		url = "postgres://postgres@127.0.0.1:5432/" + name + "?sslmode=disable"
	}
	d, err := db.Open(url, t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.Migrate(ctx))
	for i := 0; i < 30; i++ {
		require.NoError(t, d.Client.Setting.Create().SetKey(fmt.Sprintf("k%02d", i)).SetValue(fmt.Sprint(i%2)).Exec(ctx))
	}
	for _, tc := range []struct {
		desc  string
		limit int
		where predicate.Setting
		want  int
	}{
		{"bounded by the limit", 10, nil, 10},
		{"all rows under the limit", 100, nil, 30},
		{"predicates apply", 100, setting.Value("1"), 15},
		{"predicates and limit", 7, setting.Value("1"), 7},
		// A lone comparison is the whole WHERE clause (GET /users?created_after=… as an
		// administrator); copying the query must keep its operator.
		{"lone comparison", 100, setting.KeyGTE("k20"), 10},
		{"lone comparison and limit", 4, setting.KeyLT("k20"), 4},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			q := d.Client.Setting.Query()
			if tc.where != nil {
				q = q.Where(tc.where)
			}
			n, err := q.Aggregate(pagination.CountAtMost(tc.limit)).Int(ctx)
			require.NoError(t, err)
			require.Equal(t, tc.want, n)
		})
	}
	require.Equal(t, -1, pagination.BoundedTotal(pagination.CountLimit+1))
	require.Equal(t, pagination.CountLimit, pagination.BoundedTotal(pagination.CountLimit))
}
