package refs_test

import (
	"testing"

	"anvil/internal/service/refs"

	"github.com/stretchr/testify/assert"
)

func TestGlob(t *testing.T) {
	names := []string{"main", "feature/a", "feature/b", "fix-1", "Fix-2", "a*b", "[x]"}
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"*", names},
		{"feature/*", []string{"feature/a", "feature/b"}},
		{"f*", []string{"feature/a", "feature/b", "fix-1"}},
		{"fix-?", []string{"fix-1"}},
		{"[fF]ix-*", []string{"fix-1", "Fix-2"}},
		{"[^f]*", []string{"main", "Fix-2", "a*b", "[x]"}},
		{`a\*b`, []string{"a*b"}},
		{"[x", nil},
		{"[x]", nil},
		{`\[x]`, []string{"[x]"}},
		{"[]", nil},
		{"main", []string{"main"}},
	} {
		re := refs.Glob(tc.pattern)
		var got []string
		for _, n := range names {
			if re != nil && re.MatchString(n) {
				got = append(got, n)
			}
		}
		assert.Equal(t, tc.want, got, tc.pattern)
	}
	assert.Nil(t, refs.Glob("[z-a]"), "a reversed range matches nothing")
}
