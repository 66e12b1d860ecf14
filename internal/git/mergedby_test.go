package git_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
)

func TestRepository_MergedBy(t *testing.T) {
	t.Parallel()
	// main: init -> readme -> merge (readme + feature) -> rename; feature: init -> feature.
	repo := history(t)
	c := func(label string) string { return string(repo.Commit(label)) }
	for _, tc := range []struct {
		name                string
		head, before, after string
		want                string // label of the merging commit; "" when not brought in
	}{
		{"merged by a merge commit", c("feature"), c("init"), c("rename"), "merge"},
		{"the merge commit is the push's tip", c("feature"), c("readme"), c("merge"), "merge"},
		{"on the first-parent line: itself", c("readme"), c("init"), c("rename"), "readme"},
		{"the push's tip itself", c("rename"), c("merge"), c("rename"), "rename"},
		{"already in before", c("feature"), c("merge"), c("rename"), ""},
		{"not in after", c("rename"), c("init"), c("readme"), ""},
		{"created branch", c("feature"), string(git.ZeroOID), c("rename"), ""},
		{"deleted branch", c("feature"), c("init"), string(git.ZeroOID), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := repo.MergedBy(ctx, tc.head, tc.before, tc.after)
			require.NoError(t, err)
			if tc.want == "" {
				require.False(t, ok)
				return
			}
			require.True(t, ok)
			require.Equal(t, repo.Commit(tc.want), got)
		})
	}
	_, _, err := repo.MergedBy(ctx, "-x", c("init"), c("rename"))
	require.ErrorIs(t, err, git.ErrInvalidRevision)
}
