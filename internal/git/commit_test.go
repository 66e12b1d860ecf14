package git_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestRepository_commitTree(t *testing.T) {
	t.Parallel()
	repo := history(t)
	tree := git.ObjectID(strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "main^{tree}")))
	author := git.Signature{Name: "Ann Author", Email: "ann@example.com", When: time.Unix(1600000000, 0).In(time.FixedZone("", -7*3600))}
	committer := git.Signature{Name: "Carl Committer", Email: "carl@example.com", When: time.Unix(1600000500, 0).In(time.FixedZone("", 5*3600+1800))}
	id, err := repo.CommitTree(ctx, git.CommitTreeOptions{
		Tree: tree, Parents: []git.ObjectID{repo.Commit("rename"), repo.Commit("feature")},
		Message: "Subject\n\nBody\n", Author: author, Committer: committer,
	})
	require.NoError(t, err)
	raw := gittest.Git(t, repo.Path(), nil, "cat-file", "commit", string(id))
	require.Equal(t, "tree "+string(tree)+"\n"+
		"parent "+string(repo.Commit("rename"))+"\n"+
		"parent "+string(repo.Commit("feature"))+"\n"+
		"author Ann Author <ann@example.com> 1600000000 -0700\n"+
		"committer Carl Committer <carl@example.com> 1600000500 +0530\n"+
		"\nSubject\n\nBody\n", raw)
	// Nothing else moved.
	main, err := repo.ResolveCommit(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, repo.Commit("rename"), main)

	t.Run("committer defaults to author, message kept as is", func(t *testing.T) {
		id, err := repo.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Message: "no newline", Author: author})
		require.NoError(t, err)
		c, err := repo.ReadCommit(ctx, string(id))
		require.NoError(t, err)
		require.Equal(t, author.Name, c.Committer.Name)
		require.True(t, author.When.Equal(c.Committer.When))
		require.Equal(t, "no newline", c.Message)
		require.Empty(t, c.Parents)
	})
	t.Run("zero date means now", func(t *testing.T) {
		before := time.Now().Add(-time.Second)
		id, err := repo.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Message: "m", Author: git.Signature{Name: "N", Email: "n@x"}})
		require.NoError(t, err)
		c, err := repo.ReadCommit(ctx, string(id))
		require.NoError(t, err)
		require.True(t, c.Author.When.After(before))
	})
	for _, tc := range []struct {
		desc string
		opts git.CommitTreeOptions
		err  error
	}{
		{"empty name", git.CommitTreeOptions{Tree: tree, Author: git.Signature{Name: " ", Email: "a@x"}}, git.ErrInvalidArgument},
		{"angle bracket", git.CommitTreeOptions{Tree: tree, Author: git.Signature{Name: "A <b>", Email: "a@x"}}, git.ErrInvalidArgument},
		{"newline in email", git.CommitTreeOptions{Tree: tree, Author: git.Signature{Name: "A", Email: "a@x\nb"}}, git.ErrInvalidArgument},
		{"bad committer", git.CommitTreeOptions{Tree: tree, Author: author, Committer: git.Signature{Name: "C", Email: "<c>"}}, git.ErrInvalidArgument},
		{"tree not an id", git.CommitTreeOptions{Tree: "main", Author: author}, git.ErrInvalidObjectID},
		{"missing tree", git.CommitTreeOptions{Tree: "0123456789012345678901234567890123456789", Author: author}, git.ErrObjectNotFound},
		{"parent not an id", git.CommitTreeOptions{Tree: tree, Parents: []git.ObjectID{"HEAD"}, Author: author}, git.ErrInvalidObjectID},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := repo.CommitTree(ctx, tc.opts)
			require.ErrorIs(t, err, tc.err)
		})
	}
}

func TestRepository_createTag(t *testing.T) {
	t.Parallel()
	repo := history(t)
	tagger := git.Signature{Name: "Tess Tagger", Email: "tess@example.com", When: time.Unix(1600000000, 0).UTC()}
	id, err := repo.CreateTag(ctx, git.CreateTagOptions{Name: "v2.0", Target: repo.Commit("rename"), Message: "Release 2.0", Tagger: tagger})
	require.NoError(t, err)
	raw := gittest.Git(t, repo.Path(), nil, "cat-file", "tag", string(id))
	require.Equal(t, "object "+string(repo.Commit("rename"))+"\ntype commit\ntag v2.0\n"+
		"tagger Tess Tagger <tess@example.com> 1600000000 +0000\n\nRelease 2.0\n", raw)
	tag, err := repo.Tag(ctx, "v2.0")
	require.NoError(t, err)
	require.True(t, tag.Annotated)
	require.Equal(t, id, tag.ID)

	id, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "light", Target: repo.Commit("init")})
	require.NoError(t, err)
	require.Equal(t, repo.Commit("init"), id)

	_, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "v2.0", Target: repo.Commit("init")})
	require.ErrorIs(t, err, git.ErrReferenceExists)
	_, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "bad name", Target: repo.Commit("init")})
	require.ErrorIs(t, err, git.ErrInvalidRefName)
	_, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "x", Target: "0123456789012345678901234567890123456789", Message: "m", Tagger: tagger})
	require.ErrorIs(t, err, git.ErrObjectNotFound)
	_, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "y", Target: repo.Commit("init"), Message: "m"})
	require.ErrorIs(t, err, git.ErrInvalidArgument, "annotated tags need a tagger")
}
