package git_test

import (
	"context"
	"testing"

	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
)

func TestRepository_BranchTip(t *testing.T) {
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{Label: "a", Files: map[string]string{"a.txt": "a"}}}})
	ctx := context.Background()
	id, ok, err := repo.BranchTip(ctx, gittest.DefaultBranch)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, repo.Commit("a"), id)
	for _, name := range []string{"missing", "--upload-pack=x", "bad..name"} {
		_, ok, err := repo.BranchTip(ctx, name)
		require.NoError(t, err, name)
		require.False(t, ok, name)
	}
}
