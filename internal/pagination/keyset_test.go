package pagination_test

import (
	"testing"

	"anvil/internal/apperr"
	"anvil/internal/pagination"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyset_cursorRoundTrip(t *testing.T) {
	k, err := pagination.NewKeyset(pagination.KeysetCursor("name", "bob, jr", 7), 500)
	require.NoError(t, err)
	assert.True(t, k.Keyset)
	assert.Equal(t, 100, k.PerPage)
	assert.Equal(t, 101, k.KeysetLimit())
	value, id, ok, err := k.Position("name")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "bob, jr", value)
	assert.Equal(t, 7, id)
}

func TestKeyset_firstPageAndInvalidCursors(t *testing.T) {
	k, err := pagination.NewKeyset("", 0)
	require.NoError(t, err)
	assert.Equal(t, pagination.DefaultPerPage, k.PerPage)
	_, _, ok, err := k.Position("id")
	require.NoError(t, err)
	assert.False(t, ok)

	_, err = pagination.NewKeyset("***", 20)
	e, isApp := apperr.As(err)
	require.True(t, isApp)
	assert.Equal(t, "cursor is invalid", e.Message)

	for _, cursor := range []string{
		pagination.EncodeCursor(map[string]string{"id": "3"}),                // no order value
		pagination.EncodeCursor(map[string]string{"name": "x", "id": "abc"}), // id not a number
	} {
		k, err := pagination.NewKeyset(cursor, 20)
		require.NoError(t, err)
		_, _, _, err = k.Position("name")
		assert.Error(t, err, cursor)
	}
}

func TestKeysetPage(t *testing.T) {
	k := pagination.KeysetAt(nil, 2)
	last := func(s string) string { return "after-" + s }
	r := pagination.KeysetPage(k, []string{"a", "b", "c"}, "page_token", last)
	assert.Equal(t, []string{"a", "b"}, r.Items)
	assert.Equal(t, map[string]string{"page_token": "after-b"}, r.Next)
	assert.Equal(t, -1, r.Total)
	assert.True(t, r.Keyset)

	r = pagination.KeysetPage(k, []string{"a", "b"}, "page_token", last)
	assert.Equal(t, []string{"a", "b"}, r.Items)
	assert.Nil(t, r.Next)

	assert.Equal(t, "b", pagination.KeysetAt(map[string]string{"page_token": "b"}, 2).After("page_token"))
	assert.Equal(t, "", k.After("page_token"))
}
