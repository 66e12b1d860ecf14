package servertest_test

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStart_templateSchemaIsCurrent: a test server starts on a copy of the migrated template
// and skips its migrations, so the copy must hold exactly what migrating an empty database
// makes: ent finds nothing to change, and River's migrations are all applied. Then the server
// works on it (root signs in and creates a project).
func TestStart_templateSchemaIsCurrent(t *testing.T) {
	t.Setenv("ANVIL_TEST_TEMPLATE", "1")
	ctx := context.Background()
	in := servertest.Start(t)
	var plan bytes.Buffer
	require.NoError(t, in.DB.Client.Schema.WriteTo(ctx, &plan))
	assert.NotRegexp(t, regexp.MustCompile(`(?i)\b(CREATE|ALTER|DROP)\b`), plan.String(), "ent would change the template's schema")

	var all []rivermigrate.Migration
	if in.DB.Dialect == dialect.SQLite {
		m, err := rivermigrate.New(riversqlite.New(nil), nil)
		require.NoError(t, err)
		all = m.AllVersions()
	} else {
		m, err := rivermigrate.New(riverpgxv5.New(nil), nil)
		require.NoError(t, err)
		all = m.AllVersions()
	}
	var applied int
	require.NoError(t, in.DB.SQL.QueryRowContext(ctx, "SELECT max(version) FROM river_migration WHERE line = 'main'").Scan(&applied))
	assert.Equal(t, all[len(all)-1].Version, applied, "River's migrations")

	r := in.Do(t, "POST", "/projects", servertest.RootToken, `{"name":"on-template"}`)
	require.Equal(t, 201, r.Status, r.String())

	assert.Len(t, servertest.SchemaFingerprint(), 20)
	assert.Equal(t, servertest.SchemaFingerprint(), servertest.SchemaFingerprint())
}
