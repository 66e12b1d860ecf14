package git_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

var (
	mergeAuthor = git.Signature{Name: "Ann Author", Email: "ann@example.com", When: time.Unix(1700000000, 0).UTC()}
	merger      = git.Signature{Name: "Max Merger", Email: "max@example.com", When: time.Unix(1700000600, 0).UTC()}
)

func TestRepository_mergeCommit(t *testing.T) {
	t.Parallel()
	repo := conflictRepo(t)
	msg := "Merge branch 'clean' into 'main'\n\nClean\n\nSee merge request g/p!1"
	id, err := repo.MergeCommit(ctx, git.MergeCommitOptions{Ours: repo.Commit("ours"), Theirs: repo.Commit("clean"),
		Message: msg, Author: merger})
	require.NoError(t, err)
	c, err := repo.ReadCommit(ctx, string(id))
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{repo.Commit("ours"), repo.Commit("clean")}, c.Parents)
	require.Equal(t, msg, c.Message)
	require.Equal(t, "Max Merger", c.Author.Name)
	require.Equal(t, "max@example.com", c.Committer.Email)
	require.Equal(t, map[string]string{"a.txt": "1\nours\n3\n", "b.txt": "b2\n", "c.txt": "c\n"}, files(t, repo, c.Tree))

	_, err = repo.MergeCommit(ctx, git.MergeCommitOptions{Ours: repo.Commit("ours"), Theirs: repo.Commit("theirs"), Message: "m", Author: merger})
	var conflict *git.ConflictError
	require.ErrorAs(t, err, &conflict)
	require.Equal(t, []string{"a.txt"}, conflict.Paths)

	_, err = repo.MergeCommit(ctx, git.MergeCommitOptions{Ours: repo.Commit("ours"), Theirs: repo.Commit("orphan"), Message: "m", Author: merger})
	require.ErrorIs(t, err, git.ErrUnrelatedHistories)
	_, err = repo.MergeCommit(ctx, git.MergeCommitOptions{Ours: "main", Theirs: repo.Commit("clean"), Message: "m", Author: merger})
	require.ErrorIs(t, err, git.ErrInvalidObjectID)
}

func TestRepository_squash(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "base", Files: map[string]string{"a.txt": "a\n"}},
		{Label: "target", Files: map[string]string{"t.txt": "t\n"}},
		{Label: "one", Branch: "feature", Parents: []string{"base"}, Files: map[string]string{"b.txt": "b\n"}},
		{Label: "two", Branch: "feature", Files: map[string]string{"b.txt": "b2\n", "c.txt": "c\n"}},
	}})
	id, err := repo.Squash(ctx, git.SquashOptions{Base: repo.Commit("base"), Head: repo.Commit("two"),
		Message: "Feature", Author: mergeAuthor, Committer: merger})
	require.NoError(t, err)
	c, err := repo.ReadCommit(ctx, string(id))
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{repo.Commit("base")}, c.Parents)
	require.Equal(t, "Feature", c.Message)
	require.Equal(t, mergeAuthor.Name, c.Author.Name)
	require.Equal(t, merger.Name, c.Committer.Name)
	require.Equal(t, map[string]string{"a.txt": "a\n", "b.txt": "b2\n", "c.txt": "c\n"}, files(t, repo, c.Tree))

	_, err = repo.Squash(ctx, git.SquashOptions{Base: repo.Commit("target"), Head: repo.Commit("two"), Message: "x", Author: mergeAuthor})
	require.ErrorIs(t, err, git.ErrInvalidArgument)
}

func TestRepository_rebase(t *testing.T) {
	t.Parallel()
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "base", Files: map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "b\n"}},
		{Label: "target", Files: map[string]string{"t.txt": "t\n", "a.txt": "ONE\n2\n3\n"}},
		{Label: "f1", Branch: "feature", Parents: []string{"base"}, Files: map[string]string{"f.txt": "f\n"},
			Author: &mergeAuthor, Message: "Add f\n\nbody\n"},
		{Label: "f2", Branch: "feature", Files: map[string]string{"a.txt": "1\n2\nTHREE\n"}},
		// the same change the target made: becomes empty and is skipped
		{Label: "f3", Branch: "feature", Files: map[string]string{"a.txt": "ONE\n2\nTHREE\n"}},
		{Label: "side", Branch: "side", Parents: []string{"base"}, Files: map[string]string{"s.txt": "s\n"}},
		{Label: "merge", Branch: "feature", Parents: []string{"f3", "side"}, Files: map[string]string{"s.txt": "s\n"}},
		{Label: "bad", Branch: "bad", Parents: []string{"base"}, Files: map[string]string{"a.txt": "uno\n2\n3\n"}},
	}})
	res, err := repo.Rebase(ctx, git.RebaseOptions{Head: repo.Commit("merge"), Onto: repo.Commit("target"), Committer: merger})
	require.NoError(t, err)
	require.Equal(t, 3, res.Replayed) // f1, f2, side; f3 empty; the merge dropped
	require.Equal(t, 1, res.Skipped)
	log, err := repo.Log(ctx, git.LogOptions{Revisions: []string{string(res.Head), "^" + string(repo.Commit("target"))}})
	require.NoError(t, err)
	require.Len(t, log, 3)
	for _, c := range log {
		require.Len(t, c.Parents, 1)
		require.Equal(t, merger.Name, c.Committer.Name)
	}
	first := log[2]
	require.Equal(t, []git.ObjectID{repo.Commit("target")}, first.Parents)
	require.Equal(t, "Add f\n\nbody\n", first.Message)
	require.Equal(t, mergeAuthor.Email, first.Author.Email)
	require.True(t, first.Author.When.Equal(mergeAuthor.When))
	c, err := repo.ReadCommit(ctx, string(res.Head))
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a.txt": "ONE\n2\nTHREE\n", "b.txt": "b\n", "t.txt": "t\n", "f.txt": "f\n", "s.txt": "s\n"}, files(t, repo, c.Tree))

	// Already on top: unchanged.
	again, err := repo.Rebase(ctx, git.RebaseOptions{Head: res.Head, Onto: repo.Commit("target"), Committer: merger})
	require.NoError(t, err)
	require.Equal(t, git.RebaseResult{Head: res.Head}, again)

	_, err = repo.Rebase(ctx, git.RebaseOptions{Head: repo.Commit("bad"), Onto: repo.Commit("target"), Committer: merger})
	var conflict *git.ConflictError
	require.ErrorAs(t, err, &conflict)
	require.Equal(t, []string{"a.txt"}, conflict.Paths)
}
