package git_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestValidateRefName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ok   bool
		// gitAgrees: git check-ref-format gives the same answer (false where Anvil is stricter).
		gitAgrees bool
	}{
		{"refs/heads/main", true, true},
		{"refs/heads/feature/x-1", true, true},
		{"refs/tags/v1.0.0", true, true},
		{"refs/heads/ünïcode", true, true},
		{"refs/heads/a.b", true, true},
		{"refs/heads/@", true, true},
		{"refs/heads/-dash", false, false},
		{"refs/heads/a/-b", false, false},
		{"heads/main", false, false},
		{"main", false, true},
		{"refs/heads/.hidden", false, true},
		{"refs/heads/a.lock", false, true},
		{"refs/heads/a..b", false, true},
		{"refs/heads/a b", false, true},
		{"refs/heads/a~1", false, true},
		{"refs/heads/a^", false, true},
		{"refs/heads/a:b", false, true},
		{"refs/heads/a?", false, true},
		{"refs/heads/a*", false, true},
		{"refs/heads/a[", false, true},
		{"refs/heads/a\\b", false, true},
		{"refs/heads/a@{1}", false, true},
		{"refs/heads/a.", false, true},
		{"refs/heads/a/", false, true},
		{"/refs/heads/a", false, true},
		{"refs/heads//a", false, true},
		{"refs/heads/a\x01", false, true},
		{"refs/heads/a\x7f", false, true},
		{"@", false, true},
		{"", false, true},
		{"refs/heads/" + strings.Repeat("a", 1100), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := git.ValidateRefName(tc.name)
			if tc.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, git.ErrInvalidRefName)
			}
			if tc.gitAgrees && tc.name != "" {
				_, gitErr := gittest.GitErr("", nil, "check-ref-format", tc.name)
				require.Equal(t, tc.ok, gitErr == nil, "git check-ref-format disagrees: %v", gitErr)
			}
		})
	}
}

func TestValidateBranchAndTagName(t *testing.T) {
	t.Parallel()
	require.NoError(t, git.ValidateBranchName("main"))
	require.NoError(t, git.ValidateBranchName("feature/x"))
	for _, bad := range []string{"", "HEAD", "-x", "a..b", "a b", "a/", "refs/heads/x/../y"} {
		require.ErrorIs(t, git.ValidateBranchName(bad), git.ErrInvalidRefName, bad)
	}
	require.NoError(t, git.ValidateTagName("v1.0"))
	require.ErrorIs(t, git.ValidateTagName("v1.0^{}"), git.ErrInvalidRefName)
	require.Equal(t, "refs/heads/x", git.BranchRef("x"))
	require.Equal(t, "refs/tags/x", git.TagRef("x"))
}

func TestValidateRevision(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"main", "a..b", "a...b", "^main", "HEAD~2", "v1^{commit}", "HEAD^{/fix bug}", "main@{1}", "HEAD@{-1}"} {
		require.NoError(t, git.ValidateRevision(ok), ok)
	}
	for _, bad := range []string{"", "-x", "--all", "a\nb", "a\x00", "a\tb", strings.Repeat("a", 5000),
		"main:dir/file", "main:../x", ":../x", ":/regex", "main@{u}", "main@{Upstream}", "@{push}", "HEAD@{U}^{tree}"} {
		require.ErrorIs(t, git.ValidateRevision(bad), git.ErrInvalidRevision, bad)
	}
}

func TestCleanPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"/", "", true},
		{"a/b", "a/b", true},
		{"/a/b/", "a/b", true},
		{"-weird name", "-weird name", true},
		{":(exclude)x", ":(exclude)x", true},
		{"a//b", "", false},
		{"a/../b", "", false},
		{"./a", "", false},
		{".git/config", "", false},
		{"a/.GIT/x", "", false},
		{"a\x00b", "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := git.CleanPath(tc.in)
			if !tc.ok {
				require.ErrorIs(t, err, git.ErrInvalidPath)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	require.ErrorIs(t, git.ValidatePath(""), git.ErrInvalidPath)
}

func TestObjectID(t *testing.T) {
	t.Parallel()
	id, err := git.ParseObjectID("ce013625030ba8dba906f756967f9e9ca394464a")
	require.NoError(t, err)
	require.Equal(t, "ce013625", id.Short())
	require.False(t, id.IsZero())
	require.True(t, git.ZeroOID.IsZero())
	require.True(t, git.ObjectID("").IsZero())
	for _, bad := range []string{"", "main", "CE013625030BA8DBA906F756967F9E9CA394464A", "ce01362503", strings.Repeat("g", 40)} {
		_, err := git.ParseObjectID(bad)
		require.ErrorIs(t, err, git.ErrInvalidObjectID, bad)
	}
}
