package git_test

import (
	"testing"

	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMirrorFrom: every ref (branches, annotated and lightweight tags, refs outside heads and
// tags) and HEAD are copied with their objects; temporary refs are not; the checksums agree
// and tell any difference.
func TestMirrorFrom(t *testing.T) {
	src := history(t)
	require.NoError(t, src.UpdateRef(ctx, "refs/keep-around/"+string(src.Commit("feature")), src.Commit("feature"), ""))
	require.NoError(t, src.UpdateRef(ctx, "refs/merge-requests/1/head", src.Commit("readme"), ""))
	require.NoError(t, src.UpdateRef(ctx, "refs/tmp/fetch/abcd/0", src.Commit("init"), ""))
	require.NoError(t, src.SetHead(ctx, "feature"))

	dst := emptyRepo(t, src)
	require.NoError(t, dst.MirrorFrom(ctx, src.Repository))
	want := refsOf(t, src.Repository)
	delete(want, "refs/tmp/fetch/abcd/0")
	assert.Equal(t, want, refsOf(t, dst), "every ref but the temporary one")
	head, err := dst.Head(ctx)
	require.NoError(t, err)
	assert.Equal(t, "feature", head)
	gittest.Git(t, dst.Path(), nil, "fsck", "--strict", "--no-dangling")

	a, err := src.RefsChecksum(ctx)
	require.NoError(t, err)
	b, err := dst.RefsChecksum(ctx)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Len(t, a, 64)

	t.Run("the checksum tells a moved ref, a new ref and another HEAD", func(t *testing.T) {
		for name, change := range map[string]func(r *git.Repository){
			"moved": func(r *git.Repository) {
				require.NoError(t, r.UpdateRef(ctx, "refs/heads/main", src.Commit("init"), src.Commit("rename")))
			},
			"new": func(r *git.Repository) {
				require.NoError(t, r.UpdateRef(ctx, "refs/heads/extra", src.Commit("init"), ""))
			},
			"head": func(r *git.Repository) { require.NoError(t, r.SetHead(ctx, "main")) },
		} {
			copyRepo := emptyRepo(t, src)
			require.NoError(t, copyRepo.MirrorFrom(ctx, src.Repository))
			change(copyRepo)
			c, err := copyRepo.RefsChecksum(ctx)
			require.NoError(t, err)
			assert.NotEqual(t, a, c, name)
		}
	})
	t.Run("an empty repository", func(t *testing.T) {
		empty := emptyRepo(t, src)
		out := emptyRepo(t, src)
		require.NoError(t, out.MirrorFrom(ctx, empty))
		x, err := empty.RefsChecksum(ctx)
		require.NoError(t, err)
		y, err := out.RefsChecksum(ctx)
		require.NoError(t, err)
		assert.Equal(t, x, y)
	})
}
