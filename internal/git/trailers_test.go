package git_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestParseTrailers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc string
		msg  string
		want []git.Trailer
	}{
		{"subject only", "Fix: it\n", nil},
		{"subject and trailer-looking body without blank line", "Title\nKey: v\n", nil},
		{"one trailer", "Title\n\nSigned-off-by: A <a@x>\n", []git.Trailer{{"Signed-off-by", "A <a@x>"}}},
		{"several and duplicates", "Title\n\nBody text.\n\nA: 1\nB: 2\nA: 3\n",
			[]git.Trailer{{"A", "1"}, {"B", "2"}, {"A", "3"}}},
		{"no trailing newline", "Title\n\nKey: value", []git.Trailer{{"Key", "value"}}},
		{"continuation lines unfold", "Title\n\nKey: first\n  second\n\tthird\nOther: x\n",
			[]git.Trailer{{"Key", "first second third"}, {"Other", "x"}}},
		{"space before separator", "Title\n\nKey : v\n", []git.Trailer{{"Key", "v"}}},
		{"not all trailers and nothing git-generated", "Title\n\nsome text\nKey: v\n", nil},
		{"quarter trailers with a git-generated one", "Title\n\nline one\nline two\nline three\nSigned-off-by: A\n",
			[]git.Trailer{{"Signed-off-by", "A"}}},
		{"cherry-pick line counts but is not listed", "Title\n\n(cherry picked from commit abc)\nKey: v\n",
			[]git.Trailer{{"Key", "v"}}},
		{"trailing blank and comment lines ignored", "Title\n\nKey: v\n\n# comment\n\n", []git.Trailer{{"Key", "v"}}},
		{"comment inside block", "Title\n\nKey: v\n# note\nOther: w\n", []git.Trailer{{"Key", "v"}, {"Other", "w"}}},
		{"last paragraph only", "Title\n\nA: 1\n\nplain paragraph\n", nil},
		{"token with invalid characters", "Title\n\nKey_x: v\n", nil},
		{"a url reads as a trailer, as in git", "Title\n\nhttps://example.com\n", []git.Trailer{{"https", "//example.com"}}},
		{"empty value", "Title\n\nKey:\n", []git.Trailer{{"Key", ""}}},
		{"old conflicts block skipped", "Title\n\nKey: v\n\nConflicts:\n\tfile.c\n", []git.Trailer{{"Key", "v"}}},
		{"patch divider not special", "Title\n\n---\nKey: v\n", nil},
		{"empty message", "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := git.ParseTrailers(tc.msg)
			require.Equal(t, tc.want, got)
			// git itself agrees (interpret-trailers --parse is --only-trailers --unfold; with
			// --no-divider as for %(trailers)).
			out := gittest.Git(t, "", []byte(tc.msg), "interpret-trailers", "--parse", "--no-divider")
			var fromGit []git.Trailer
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if line == "" {
					continue
				}
				k, v, _ := strings.Cut(line, ":")
				fromGit = append(fromGit, git.Trailer{Key: k, Value: strings.TrimSpace(v)})
			}
			require.Equal(t, tc.want, fromGit, "git interpret-trailers: %q", out)
		})
	}
}
