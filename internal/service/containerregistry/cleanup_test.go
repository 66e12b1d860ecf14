package containerregistry

import (
	"testing"
	"time"

	"anvil/internal/registry"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTagsToDelete(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) *time.Time { t := now.Add(-d); return &t }
	day := 24 * time.Hour
	tags := []registry.TagInfo{
		{Name: "latest", CreatedAt: ago(100 * day)},
		{Name: "v1.0", CreatedAt: ago(60 * day)},
		{Name: "v1.1", CreatedAt: ago(31 * day)},
		{Name: "v2.0", CreatedAt: ago(10 * day)},
		{Name: "v2.1", CreatedAt: ago(2 * time.Hour)},
		{Name: "main-abc", CreatedAt: ago(5 * day)},
		{Name: "main-def", CreatedAt: ago(40 * day)},
		{Name: "stable", CreatedAt: ago(90 * day)},
		{Name: "index"}, // an index: no creation date
	}
	n := func(i int) *int { return &i }
	for _, tc := range []struct {
		name string
		p    CleanupParams
		want []string
	}{
		{"everything but latest", CleanupParams{NameRegexDelete: ".*"},
			[]string{"index", "main-abc", "main-def", "stable", "v1.0", "v1.1", "v2.0", "v2.1"}},
		{"latest never, even by name", CleanupParams{NameRegexDelete: "latest"}, []string{}},
		{"whole names only", CleanupParams{NameRegexDelete: "v1"}, []string{}},
		{"an expression", CleanupParams{NameRegexDelete: `v\d+\.\d+`}, []string{"v1.0", "v1.1", "v2.0", "v2.1"}},
		{"keep overrides delete", CleanupParams{NameRegexDelete: ".*", NameRegexKeep: `v.*|stable`},
			[]string{"index", "main-abc", "main-def"}},
		{"keep everything is a no-op", CleanupParams{NameRegexDelete: ".*", NameRegexKeep: ".*"}, []string{}},
		{"keep_n keeps the newest matches (no date counts as newest)", CleanupParams{NameRegexDelete: ".*", KeepN: n(3)},
			[]string{"main-def", "stable", "v1.0", "v1.1", "v2.0"}},
		{"keep_n among the matches only", CleanupParams{NameRegexDelete: `v.*`, KeepN: n(2)}, []string{"v1.0", "v1.1"}},
		{"keep_n above the count", CleanupParams{NameRegexDelete: `v.*`, KeepN: n(10)}, []string{}},
		{"keep_n 0", CleanupParams{NameRegexDelete: `main-.*`, KeepN: n(0)}, []string{"main-abc", "main-def"}},
		{"older_than days", CleanupParams{NameRegexDelete: ".*", OlderThan: "7d"},
			[]string{"main-def", "stable", "v1.0", "v1.1", "v2.0"}},
		{"older_than a month", CleanupParams{NameRegexDelete: ".*", OlderThan: "1month"},
			[]string{"main-def", "stable", "v1.0", "v1.1"}},
		{"older_than hours", CleanupParams{NameRegexDelete: "v2.*", OlderThan: "1h"}, []string{"v2.0", "v2.1"}},
		{"keep_n before older_than", CleanupParams{NameRegexDelete: ".*", KeepN: n(5), OlderThan: "35d"},
			[]string{"main-def", "stable", "v1.0"}},
		{"all rules", CleanupParams{NameRegexDelete: ".*", NameRegexKeep: "stable", KeepN: n(1), OlderThan: "20d"},
			[]string{"main-def", "v1.0", "v1.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TagsToDelete(tags, tc.p, now)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCleanupParams_Validate(t *testing.T) {
	assert.NoError(t, CleanupParams{NameRegexDelete: ".*", NameRegexKeep: `v\d+`, OlderThan: "1month"}.Validate("name_regex_delete"))
	for _, tc := range []struct {
		p    CleanupParams
		want string
	}{
		{CleanupParams{NameRegexDelete: "[a-"}, "name_regex_delete is an invalid regexp"},
		{CleanupParams{NameRegexDelete: `(?<=a)b`}, "name_regex_delete is an invalid regexp"}, // not RE2
		{CleanupParams{NameRegexDelete: ".*", NameRegexKeep: "(("}, "name_regex_keep is an invalid regexp"},
		{CleanupParams{NameRegexDelete: ".*", OlderThan: "soon"}, "older_than is invalid"},
	} {
		err := tc.p.Validate("name_regex_delete")
		require.Error(t, err)
		assert.Equal(t, tc.want, err.Error())
	}
}

func TestParseSpan(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"1h": time.Hour, "90m": 90 * time.Minute, "1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour,
		"2 weeks": 14 * 24 * time.Hour, "1month": 30 * 24 * time.Hour, "3 months": 90 * 24 * time.Hour,
		"1y": 31557600 * time.Second, "1d 12h": 36 * time.Hour, "1d12h": 36 * time.Hour, "45": 45 * time.Second,
		"1 day and 2 hours": 26 * time.Hour,
	} {
		got, err := ParseSpan(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "soon", "1 fortnight", "h1", "-1d"} {
		_, err := ParseSpan(in)
		assert.Error(t, err, in)
	}
}
