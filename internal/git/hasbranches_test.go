package git_test

import (
	"context"
	"testing"

	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
)

func TestRepository_HasBranchesOnDisk(t *testing.T) {
	ctx := context.Background()
	empty := gittest.NewRepo(t, gittest.Spec{})
	has, err := empty.HasBranchesOnDisk()
	require.NoError(t, err)
	require.False(t, has)

	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{Label: "a", Files: map[string]string{"a.txt": "a"}}}})
	has, err = repo.HasBranchesOnDisk()
	require.NoError(t, err)
	require.True(t, has, "loose branch ref")
	viaGit, err := repo.HasBranches(ctx)
	require.NoError(t, err)
	require.Equal(t, viaGit, has)

	gittest.Git(t, repo.Path(), nil, "pack-refs", "--all")
	has, err = repo.HasBranchesOnDisk()
	require.NoError(t, err)
	require.True(t, has, "packed branch ref")
}
