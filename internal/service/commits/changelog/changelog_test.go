package changelog

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTemplate(t *testing.T) {
	data := map[string]any{
		"valid": true, "empty": []any{}, "name": "x", "n": 3,
		"users": []any{map[string]any{"name": "ann"}, map[string]any{"name": "bob"}},
		"h":     map[string]any{"b": 2, "a": 1},
	}
	for _, tc := range []struct{ desc, src, want string }{
		{"text", "plain {text}\n", "plain {text}\n"},
		{"variable", "{{ name }}-{{n}}-{{missing}}", "x-3-"},
		{"nested and index", "{{ users.1.name }}|{{users.5.name}}", "bob|"},
		{"if consumes the newline", "---\n{% if valid %}\nbar\n{% end %}\n---\n", "---\nbar\n---\n"},
		{"else", "{% if empty %}yes{% else %}nope{% end %}", "nope"},
		{"each with it", "{% each users %}{{ name }};{% end %}{% each empty %}never{% end %}", "ann;bob;"},
		{"each over a hash yields pairs", "{% each h %}{{ it.0 }}={{ it.1 }} {% end %}", "a=1 b=2 "},
		{"escaped newline", "a\\\nb\\c", "ab\\c"},
		{"more braces", "{{{ name }}}", "x"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tpl, err := ParseTemplate(tc.src)
			require.NoError(t, err)
			got, err := tpl.Execute(data)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	for _, src := range []string{"{% if x %}no end", "{{ }}", "{% end %}", "{% bogus %}", "a\\{{x}}", "{{ a.b. }}"} {
		_, err := ParseTemplate(src)
		var ce *Error
		require.True(t, errors.As(err, &ce), src)
		require.Contains(t, ce.Msg, "Failed to parse the template: ", src)
	}
	deep, err := ParseTemplate("{% each a %}{% each it %}{% each it %}{% each it %}{% each it %}x{% end %}{% end %}{% end %}{% end %}{% end %}")
	require.NoError(t, err)
	nest := []any{[]any{[]any{[]any{[]any{1}}}}}
	_, err = deep.Execute(map[string]any{"a": nest})
	require.EqualError(t, err, "You can only nest up to 4 loops")
}

func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"1.0.0", "1.0.1", -1}, {"1.10.0", "1.9.0", 1}, {"1.0.0-rc1", "1.0.0", -1}, {"v2.0.0", "1.0.0", 1}, {"1.0.0", "1.0.0", 0}} {
		require.Equal(t, tc.want, CompareVersions(tc.a, tc.b), tc.a+" vs "+tc.b)
	}
	tags := []Tag{{"v1.0.0", "a"}, {"v1.1.0", "b"}, {"v2.0.0", "c"}, {"v2.1.0-rc1", "d"}, {"other", "e"}}
	for version, want := range map[string]string{"2.1.0": "c", "1.1.1": "b", "1.2.0": "b", "v1.1.0": "a", "3.0.0-rc1": "c"} {
		got, ok, err := PreviousTag(version, DefaultTagRegex, tags)
		require.NoError(t, err)
		require.True(t, ok, version)
		require.Equal(t, want, got.Commit, version)
	}
	_, ok, err := PreviousTag("0.1.0", DefaultTagRegex, tags)
	require.NoError(t, err)
	require.False(t, ok)
	_, _, err = PreviousTag("1.x", DefaultTagRegex, tags)
	require.EqualError(t, err, "The requested `version` attribute format is not correct. Use formats such as `1.0.0` or `v1.0.0`.")
	_, _, err = PreviousTag("1.0.0", "(", tags)
	require.ErrorContains(t, err, "The regular expression to use for finding the previous tag for a version is invalid")
	require.True(t, ValidVersion("v1.2.3"))
	require.False(t, ValidVersion("1.2"))
}

func TestInsert(t *testing.T) {
	rel := NewRelease("1.1.0", time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC), DefaultConfig())
	rel.Add(Entry{Title: "T", Category: "added", CommitReference: "g/p@1", CommitWebURL: "u", Author: &Author{Reference: "@a", Credit: true}})
	section := "## 1.1.0 (2024-05-06)\n\n### added (1 change)\n\n- [T](u) by @a\n"
	got, err := Insert("", rel)
	require.NoError(t, err)
	require.Equal(t, section, got)
	// Older sections only: appended after a blank line; newer only: inserted before them.
	got, err = Insert("# Log\n\n## 1.0.0 (x)\n\nold\n", rel)
	require.NoError(t, err)
	require.Equal(t, "# Log\n\n"+section+"\n## 1.0.0 (x)\n\nold\n", got)
	got, err = Insert("## 2.0.0 (x)\n\nnew\n", rel)
	require.NoError(t, err)
	require.Equal(t, "## 2.0.0 (x)\n\nnew\n\n"+section, got)
	require.True(t, rel.In("x\n## 1.1.0 (y)\n"))
	require.False(t, rel.In("## 1.0.0 (y)\n"))
}

func TestConfigAndStrftime(t *testing.T) {
	cfg, err := ParseConfig([]byte("categories:\n  fix: Fixes\n  feat: Features\ninclude_groups: [g, h]\ndate_format: '%d/%m/%y'\n"))
	require.NoError(t, err)
	require.Equal(t, []Category{{"fix", "Fixes"}, {"feat", "Features"}}, cfg.Categories)
	require.Equal(t, []string{"g", "h"}, cfg.IncludeGroups)
	require.Equal(t, "Other", cfg.CategoryTitle("Other"))
	for _, bad := range []string{"categories: [a]", "- a", "a: [", "include_groups: x"} {
		_, err := ParseConfig([]byte(bad))
		var ce *Error
		require.True(t, errors.As(err, &ce), bad)
	}
	d := time.Date(2024, 3, 4, 15, 6, 7, 0, time.UTC)
	require.Equal(t, "2024-03-04 15:06:07 Mon March 4 04 %q 03PM", Strftime(d, "%Y-%m-%d %H:%M:%S %a %B %-d %d %q %I%p"))
}
