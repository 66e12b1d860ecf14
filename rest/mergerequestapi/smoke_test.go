package mergerequestapi_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreateAndRead: a developer opens a merge request and reads it back.
func TestCreateAndRead(t *testing.T) {
	f := newMRFixture(t, "private")
	mr := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Draft: Add feature"})
	assert.Equal(t, float64(1), mr["iid"])
	assert.Equal(t, true, mr["draft"])
	r := f.Do(t, "GET", f.base+"/1", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, "Draft: Add feature", got["title"])
	t.Log(r.String())
}
