package tags

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"v1.9", "v1.10", -1},
		{"v1.10", "v1.9", 1},
		{"v1.2", "v1.2", 0},
		{"v1.02", "v1.2", 0},
		{"v1.2", "v1.2.1", -1},
		{"1.0", "v1.0", -1},
		{"v2", "v10", -1},
		{"release-9", "release-10-rc", -1},
	} {
		assert.Equal(t, tc.want, compareVersions(tc.a, tc.b), "%s vs %s", tc.a, tc.b)
	}
}
