package refs

import (
	"testing"

	"anvil/internal/pagination"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func id(s string) string { return s }

func TestSearch(t *testing.T) {
	names := []string{"Main", "a-main", "feature/x", "main-2", "mainly", "release-1.0", "x.y"}
	for _, tc := range []struct {
		term string
		want []string
	}{
		{"", names},
		{"main", []string{"Main", "a-main", "main-2", "mainly"}}, // exact (ignoring case) first
		{"MAIN-2", []string{"main-2"}},
		{"^main", []string{"Main", "main-2", "mainly"}},
		{"main$", []string{"Main", "a-main"}},
		{"^main$", []string{"Main"}},
		{"^m*y$", []string{"mainly"}},
		{"1.0", []string{"release-1.0"}}, // "." is literal
		{"x.y", []string{"x.y"}},
		{"e*x", []string{"feature/x"}}, // not anchored: matches anywhere
		{"(", nil},
		{"a^b", nil}, // "^" keeps its meaning wherever it is
	} {
		got := Search(append([]string(nil), names...), id, tc.term)
		assert.Equal(t, tc.want, got, tc.term)
	}
}

func TestExactFirst(t *testing.T) {
	assert.Equal(t, []string{"b", "a", "c"}, ExactFirst([]string{"a", "b", "c"}, id, "B"))
	assert.Equal(t, []string{"a", "b", "c"}, ExactFirst([]string{"a", "b", "c"}, id, "^b"))
	assert.Equal(t, []string{"a", "b"}, ExactFirst([]string{"a", "b"}, id, "z"))
}

func TestValidNames(t *testing.T) {
	for name, ok := range map[string]bool{
		"main": true, "feature/x": true, "v1.0": true, "a-b": true,
		"": false, "HEAD": false, "-x": false, "--upload-pack=x": false, "a/-x": false, "a..b": false, "a b": false,
		"refs/heads/x": false, "refs/tags/x": false, "refs/remotes/x": false, "x.lock": false, "a~1": false,
		"a^": false, "a:b": false, "a*": false, "a?": false, "a[": false, "a\\b": false, "/a": false, "a/": false, "a//b": false,
	} {
		assert.Equal(t, ok, ValidBranchName(name), "branch %q", name)
		assert.Equal(t, ok, ValidTagName(name), "tag %q", name)
	}
	assert.True(t, LooksLikeObjectID("0123456789abcdef0123456789abcdef01234567"))
	assert.True(t, LooksLikeObjectID("0123456789abcdef0123456789abcdef01234567/x"))
	assert.False(t, LooksLikeObjectID("0123456789abcdef0123456789abcdef012345678"))
	assert.False(t, LooksLikeObjectID("feature"))
}

func TestPaginate(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e"}
	res, err := Paginate(items, id, pagination.OffsetPage(2, 2), "refs/heads/")
	require.NoError(t, err)
	assert.Equal(t, []string{"c", "d"}, res.Items)
	assert.Equal(t, 5, res.Total)

	res, err = Paginate(items, id, pagination.KeysetAt(nil, 2), "refs/heads/")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, res.Items)
	assert.Equal(t, map[string]string{"page_token": "b"}, res.Next)
	assert.Equal(t, -1, res.Total)

	res, err = Paginate(items, id, pagination.KeysetAt(map[string]string{PageToken: "d"}, 2), "refs/heads/")
	require.NoError(t, err)
	assert.Equal(t, []string{"e"}, res.Items)
	assert.Nil(t, res.Next)

	_, err = Paginate(items, id, pagination.KeysetAt(map[string]string{PageToken: "zz"}, 2), "refs/tags/")
	require.EqualError(t, err, "Invalid page token: refs/tags/zz")
}
