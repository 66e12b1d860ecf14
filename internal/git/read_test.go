package git_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestRepository_resolve(t *testing.T) {
	t.Parallel()
	repo := history(t)
	tagObject := strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "refs/tags/v1.0"))
	for _, tc := range []struct {
		rev        string
		commit     git.ObjectID
		revision   git.ObjectID // ResolveRevision (no peeling); "" = same as commit
		commitErr  error
		revErr     error
		revErrSame bool
	}{
		{rev: "main", commit: repo.Commit("rename")},
		{rev: "refs/heads/feature", commit: repo.Commit("feature")},
		{rev: "main~1", commit: repo.Commit("merge")},
		{rev: "main~1^2", commit: repo.Commit("feature")},
		{rev: "v1.0", commit: repo.Commit("init"), revision: git.ObjectID(tagObject)},
		{rev: "v1.1", commit: repo.Commit("readme")},
		{rev: string(repo.Commit("readme")), commit: repo.Commit("readme")},
		{rev: string(repo.Commit("readme"))[:10], commit: repo.Commit("readme")},
		{rev: "nope", commitErr: git.ErrReferenceNotFound, revErr: git.ErrReferenceNotFound},
		{rev: "0123456789012345678901234567890123456789", commitErr: git.ErrObjectNotFound, revErr: git.ErrObjectNotFound},
		{rev: "main:README.md", commitErr: git.ErrInvalidRevision, revErr: git.ErrInvalidRevision},
		{rev: "main:../x", commitErr: git.ErrInvalidRevision, revErr: git.ErrInvalidRevision},
		{rev: "main@{upstream}", commitErr: git.ErrInvalidRevision, revErr: git.ErrInvalidRevision},
		{rev: "-main", commitErr: git.ErrInvalidRevision, revErr: git.ErrInvalidRevision},
		{rev: "a\nb", commitErr: git.ErrInvalidRevision, revErr: git.ErrInvalidRevision},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			got, err := repo.ResolveCommit(ctx, tc.rev)
			if tc.commitErr != nil {
				require.ErrorIs(t, err, tc.commitErr)
			} else {
				require.NoError(t, err)
				require.Equal(t, tc.commit, got)
			}
			got, err = repo.ResolveRevision(ctx, tc.rev)
			switch {
			case tc.revErr != nil:
				require.ErrorIs(t, err, tc.revErr)
			case tc.commitErr != nil:
				require.NoError(t, err) // resolves, to something that is not a commit
			default:
				require.NoError(t, err)
				want := tc.revision
				if want == "" {
					want = tc.commit
				}
				require.Equal(t, want, got)
			}
		})
	}
}

func TestRepository_readCommit(t *testing.T) {
	t.Parallel()
	repo := history(t)
	c, err := repo.ReadCommit(ctx, "feature")
	require.NoError(t, err)
	require.Equal(t, repo.Commit("feature"), c.ID)
	require.Equal(t, []git.ObjectID{repo.Commit("init")}, c.Parents)
	require.Equal(t, "Add feature", c.Subject())
	require.Equal(t, gittest.Author.Name, c.Author.Name)
	require.Equal(t, gittest.Author.Email, c.Author.Email)
	require.Equal(t, gittest.Committer.Name, c.Committer.Name)
	require.True(t, c.Author.When.Equal(gittest.Epoch.Add(1*60e9)), c.Author.When)
	_, off := c.Author.When.Zone()
	require.Equal(t, 7200, off, "time zone kept")
	require.Equal(t, []git.Trailer{{"Signed-off-by", "Jane Doe <jane@example.com>"}, {"Issue", "#1"}}, c.Trailers)
	tree := strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "feature^{tree}"))
	require.Equal(t, git.ObjectID(tree), c.Tree)

	merge, err := repo.ReadCommit(ctx, string(repo.Commit("merge")))
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{repo.Commit("readme"), repo.Commit("feature")}, merge.Parents)

	tagged, err := repo.ReadCommit(ctx, "v1.0")
	require.NoError(t, err)
	require.Equal(t, repo.Commit("init"), tagged.ID)

	_, err = repo.ReadCommit(ctx, "nope")
	require.ErrorIs(t, err, git.ErrReferenceNotFound)

	commits, err := repo.ReadCommits(ctx, []git.ObjectID{repo.Commit("rename"), repo.Commit("init")})
	require.NoError(t, err)
	require.Equal(t, repo.Commit("rename"), commits[0].ID)
	require.Equal(t, repo.Commit("init"), commits[1].ID)
	_, err = repo.ReadCommits(ctx, []git.ObjectID{"0123456789012345678901234567890123456789"})
	require.ErrorIs(t, err, git.ErrObjectNotFound)
	readme, err := repo.TreeEntryAt(ctx, "main", "README.md")
	require.NoError(t, err)
	_, err = repo.ReadCommits(ctx, []git.ObjectID{readme.ID})
	require.ErrorIs(t, err, git.ErrObjectNotFound, "a blob is not a commit")
	_, err = repo.ReadCommits(ctx, []git.ObjectID{"main"})
	require.ErrorIs(t, err, git.ErrInvalidObjectID)
	none, err := repo.ReadCommits(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, none)
}

func TestRepository_readBlob(t *testing.T) {
	t.Parallel()
	repo := history(t)
	b, err := repo.ReadBlobAt(ctx, "main", "README.md", -1)
	require.NoError(t, err)
	require.Equal(t, "# Project\n\nHello, world.\n", string(b.Data))
	require.EqualValues(t, 25, b.Size)
	require.False(t, b.Truncated)

	_, err = repo.ReadBlob(ctx, "main:README.md", -1)
	require.ErrorIs(t, err, git.ErrInvalidRevision, "paths are a parameter of their own")
	_, err = repo.ReadBlobAt(ctx, "main", "../x", -1)
	require.ErrorIs(t, err, git.ErrInvalidPath)

	b, err = repo.ReadBlobAt(ctx, "main", "README.md", 9)
	require.NoError(t, err)
	require.Equal(t, "# Project", string(b.Data))
	require.True(t, b.Truncated)

	b2, err := repo.ReadBlob(ctx, string(b.ID), 0)
	require.NoError(t, err)
	require.Empty(t, b2.Data)
	require.True(t, b2.Truncated)

	var buf bytes.Buffer
	info, err := repo.ReadBlobTo(ctx, b.ID, &buf)
	require.NoError(t, err)
	require.Equal(t, git.ObjectInfo{ID: b.ID, Type: git.TypeBlob, Size: 25}, info)
	require.Equal(t, "# Project\n\nHello, world.\n", buf.String())

	_, err = repo.ReadBlobAt(ctx, "main", "docs", -1)
	require.ErrorIs(t, err, git.ErrObjectNotFound, "a tree is not a blob")
	_, err = repo.ReadBlobAt(ctx, "main", "missing", -1)
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
	_, err = repo.ReadBlobTo(ctx, repo.Commit("init"), &buf)
	require.ErrorIs(t, err, git.ErrObjectNotFound)

	info, err = repo.ReadObjectInfo(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, git.ObjectInfo{ID: repo.Commit("rename"), Type: git.TypeCommit, Size: info.Size}, info)
	require.Positive(t, info.Size)

	ok, err := repo.HasObject(ctx, b.ID)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = repo.HasObject(ctx, "0123456789012345678901234567890123456789")
	require.NoError(t, err)
	require.False(t, ok)
}

func TestRepository_readTagObject(t *testing.T) {
	t.Parallel()
	repo := history(t)
	id, err := repo.ResolveRevision(ctx, "v1.0")
	require.NoError(t, err)
	tag, err := repo.ReadTagObject(ctx, id)
	require.NoError(t, err)
	require.Equal(t, "v1.0", tag.Name)
	require.Equal(t, repo.Commit("init"), tag.Object)
	require.Equal(t, git.TypeCommit, tag.Type)
	require.Equal(t, "Version 1.0\n", tag.Message)
	require.Equal(t, gittest.Committer.Name, tag.Tagger.Name)
	_, err = repo.ReadTagObject(ctx, repo.Commit("init"))
	require.ErrorIs(t, err, git.ErrObjectNotFound)
}
