package git_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git/gittest"
)

// Head reads the HEAD file when it names a branch, and lets git answer anything else.
func TestRepository_headFile(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{Label: "c", Files: map[string]string{"a": "a"}}}})
	headFile := filepath.Join(repo.Path(), "HEAD")
	for _, tc := range []struct {
		name, content string
		want          string // "" means an error
	}{
		{"branch", "ref: refs/heads/main\n", "main"},
		{"nested branch without newline", "ref: refs/heads/release/1.x", "release/1.x"},
		{"not a branch", "ref: refs/tags/v1\n", "refs/tags/v1"},
		{"invalid name (reftable placeholder)", "ref: refs/heads/.invalid\n", ""},
		{"detached", string(repo.Commit("c")) + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(headFile, []byte(tc.content), 0o644))
			got, err := repo.Head(ctx)
			if tc.want == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
