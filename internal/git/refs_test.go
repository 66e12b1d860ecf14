package git_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func refNames(refs []git.Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Name)
	}
	return out
}

func TestRepository_listRefs(t *testing.T) {
	t.Parallel()
	repo := history(t)
	tagObject := git.ObjectID(strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "refs/tags/v1.0")))

	all, err := repo.ListRefs(ctx, git.ListRefsOptions{})
	require.NoError(t, err)
	require.Equal(t, []git.Ref{
		{Name: "refs/heads/feature", Target: repo.Commit("feature"), TargetType: git.TypeCommit},
		{Name: "refs/heads/main", Target: repo.Commit("rename"), TargetType: git.TypeCommit},
		{Name: "refs/tags/v1.0", Target: tagObject, TargetType: git.TypeTag, Peeled: repo.Commit("init")},
		{Name: "refs/tags/v1.1", Target: repo.Commit("readme"), TargetType: git.TypeCommit},
	}, all)
	require.Equal(t, "v1.0", all[2].ShortName())
	require.Equal(t, "main", all[1].ShortName())

	for _, tc := range []struct {
		desc string
		opts git.ListRefsOptions
		want []string
	}{
		{"branches", git.ListRefsOptions{Patterns: []string{"refs/heads/"}}, []string{"refs/heads/feature", "refs/heads/main"}},
		{"glob", git.ListRefsOptions{Patterns: []string{"refs/tags/v1.*"}}, []string{"refs/tags/v1.0", "refs/tags/v1.1"}},
		{"two patterns", git.ListRefsOptions{Patterns: []string{"refs/heads/main", "refs/tags/v1.1"}}, []string{"refs/heads/main", "refs/tags/v1.1"}},
		{"contains feature", git.ListRefsOptions{Contains: repo.Commit("feature")}, []string{"refs/heads/feature", "refs/heads/main"}},
		{"contains readme", git.ListRefsOptions{Contains: repo.Commit("readme")}, []string{"refs/heads/main", "refs/tags/v1.1"}},
		{"merged into readme", git.ListRefsOptions{Merged: repo.Commit("readme"), Patterns: []string{"refs/heads/"}}, nil},
		{"merged into main", git.ListRefsOptions{Merged: repo.Commit("rename"), Patterns: []string{"refs/heads/"}}, []string{"refs/heads/feature", "refs/heads/main"}},
		{"points at init", git.ListRefsOptions{PointsAt: repo.Commit("init")}, []string{"refs/tags/v1.0"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := repo.ListRefs(ctx, tc.opts)
			require.NoError(t, err)
			require.Equal(t, tc.want, refNames(got))
		})
	}
	for _, bad := range []git.ListRefsOptions{
		{Patterns: []string{"heads/"}},
		{Patterns: []string{"--format=x"}},
		{Patterns: []string{"refs/../x"}},
		{Contains: "main"},
	} {
		_, err := repo.ListRefs(ctx, bad)
		require.Error(t, err)
	}
}

func TestRepository_branchesAndTags(t *testing.T) {
	t.Parallel()
	repo := history(t)
	// A tag of a tag, and a tag of a tree.
	inner := repo.AddTag(gittest.TagSpec{Name: "inner", Target: "feature", Message: "inner"})
	tagger := gittest.Committer
	tagger.When = gittest.Epoch
	_, err := repo.CreateTag(ctx, git.CreateTagOptions{Name: "outer", Target: inner, Message: "outer", Tagger: tagger})
	require.NoError(t, err)
	tree := git.ObjectID(strings.TrimSpace(gittest.Git(t, repo.Path(), nil, "rev-parse", "main^{tree}")))
	_, err = repo.CreateTag(ctx, git.CreateTagOptions{Name: "tree", Target: tree})
	require.NoError(t, err)

	branches, err := repo.Branches(ctx, git.ListRefsOptions{})
	require.NoError(t, err)
	require.Len(t, branches, 2)
	require.Equal(t, "feature", branches[0].Name)
	require.Equal(t, repo.Commit("feature"), branches[0].Commit.ID)
	require.Equal(t, "main", branches[1].Name)
	require.Equal(t, "rename", branches[1].Commit.Subject())

	b, err := repo.Branch(ctx, "feature")
	require.NoError(t, err)
	require.Equal(t, repo.Commit("feature"), b.Commit.ID)
	_, err = repo.Branch(ctx, "nope")
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
	_, err = repo.Branch(ctx, "-x")
	require.ErrorIs(t, err, git.ErrInvalidRefName)

	tags, err := repo.Tags(ctx, git.ListRefsOptions{})
	require.NoError(t, err)
	byName := map[string]git.Tag{}
	for _, tg := range tags {
		byName[tg.Name] = tg
	}
	require.Len(t, byName, 5)

	v10 := byName["v1.0"]
	require.True(t, v10.Annotated)
	require.Equal(t, "Version 1.0\n", v10.Message)
	require.Equal(t, gittest.Committer.Name, v10.Tagger.Name)
	require.Equal(t, repo.Commit("init"), v10.TargetID)
	require.Equal(t, git.TypeCommit, v10.TargetType)
	require.Equal(t, repo.Commit("init"), v10.Commit.ID)
	require.NotEqual(t, v10.ID, v10.TargetID)

	v11 := byName["v1.1"]
	require.False(t, v11.Annotated)
	require.Nil(t, v11.Tagger)
	require.Empty(t, v11.Message)
	require.Equal(t, repo.Commit("readme"), v11.ID)
	require.Equal(t, repo.Commit("readme"), v11.Commit.ID)

	outer := byName["outer"]
	require.True(t, outer.Annotated)
	require.Equal(t, "outer\n", outer.Message)
	require.Equal(t, repo.Commit("feature"), outer.TargetID, "peeled through the inner tag")
	require.Equal(t, repo.Commit("feature"), outer.Commit.ID)

	tr := byName["tree"]
	require.Equal(t, git.TypeTree, tr.TargetType)
	require.Nil(t, tr.Commit)

	one, err := repo.Tag(ctx, "outer")
	require.NoError(t, err)
	require.Equal(t, outer, *one)
	_, err = repo.Tag(ctx, "nope")
	require.ErrorIs(t, err, git.ErrReferenceNotFound)

	filtered, err := repo.Tags(ctx, git.ListRefsOptions{Patterns: []string{"refs/tags/v1.*"}})
	require.NoError(t, err)
	require.Len(t, filtered, 2)
}

func TestRepository_head(t *testing.T) {
	t.Parallel()
	c := gittest.NewClient(t)
	repo := gittest.NewRepoWith(t, c, gittest.Spec{DefaultBranch: "trunk"})
	head, err := repo.Head(ctx)
	require.NoError(t, err)
	require.Equal(t, "trunk", head)
	has, err := repo.HasBranches(ctx)
	require.NoError(t, err)
	require.False(t, has)
	require.True(t, repo.Exists())
	require.False(t, c.Repository(t.TempDir()).Exists())

	repo.AddCommit(gittest.CommitSpec{Label: "c", Branch: "dev", Files: map[string]string{"a": "a"}})
	has, err = repo.HasBranches(ctx)
	require.NoError(t, err)
	require.True(t, has)
	require.NoError(t, repo.SetHead(ctx, "dev"))
	head, err = repo.Head(ctx)
	require.NoError(t, err)
	require.Equal(t, "dev", head)
	commit, err := repo.ResolveCommit(ctx, "HEAD")
	require.NoError(t, err)
	require.Equal(t, repo.Commit("c"), commit)
	require.ErrorIs(t, repo.SetHead(ctx, "HEAD"), git.ErrInvalidRefName)
}

func TestRepository_updateRefs(t *testing.T) {
	t.Parallel()
	repo := history(t)
	initID, readme, feature := repo.Commit("init"), repo.Commit("readme"), repo.Commit("feature")
	for _, tc := range []struct {
		desc    string
		updates []git.RefUpdate
		errs    []error
		check   map[string]git.ObjectID // ref → expected value after ("" = absent)
	}{
		{"create", []git.RefUpdate{{Name: "refs/heads/new", NewOID: initID, OldOID: git.ZeroOID}}, nil,
			map[string]git.ObjectID{"refs/heads/new": initID}},
		{"create existing", []git.RefUpdate{{Name: "refs/heads/new", NewOID: readme, OldOID: git.ZeroOID}},
			[]error{git.ErrStaleRef, git.ErrReferenceExists}, map[string]git.ObjectID{"refs/heads/new": initID}},
		{"update with expected value", []git.RefUpdate{{Name: "refs/heads/new", NewOID: readme, OldOID: initID}}, nil,
			map[string]git.ObjectID{"refs/heads/new": readme}},
		{"update with stale value", []git.RefUpdate{{Name: "refs/heads/new", NewOID: feature, OldOID: initID}},
			[]error{git.ErrStaleRef}, map[string]git.ObjectID{"refs/heads/new": readme}},
		{"update unchecked", []git.RefUpdate{{Name: "refs/heads/new", NewOID: feature}}, nil,
			map[string]git.ObjectID{"refs/heads/new": feature}},
		{"update missing with expected value", []git.RefUpdate{{Name: "refs/heads/missing", NewOID: feature, OldOID: initID}},
			[]error{git.ErrStaleRef, git.ErrReferenceNotFound}, map[string]git.ObjectID{"refs/heads/missing": ""}},
		{"directory clash", []git.RefUpdate{{Name: "refs/heads/new/sub", NewOID: feature, OldOID: git.ZeroOID}},
			[]error{git.ErrReferenceExists}, map[string]git.ObjectID{"refs/heads/new/sub": ""}},
		{"file clash", []git.RefUpdate{{Name: "refs/heads", NewOID: feature}}, []error{git.ErrReferenceExists}, nil},
		{"nonexistent object", []git.RefUpdate{{Name: "refs/heads/x", NewOID: "0123456789012345678901234567890123456789"}},
			[]error{git.ErrObjectNotFound}, map[string]git.ObjectID{"refs/heads/x": ""}},
		{"atomic: one stale update rejects all", []git.RefUpdate{
			{Name: "refs/heads/a1", NewOID: initID, OldOID: git.ZeroOID},
			{Name: "refs/heads/new", NewOID: initID, OldOID: initID},
		}, []error{git.ErrStaleRef}, map[string]git.ObjectID{"refs/heads/a1": "", "refs/heads/new": feature}},
		{"atomic: several at once", []git.RefUpdate{
			{Name: "refs/heads/a1", NewOID: initID, OldOID: git.ZeroOID},
			{Name: "refs/tags/t1", NewOID: readme, OldOID: git.ZeroOID},
			{Name: "refs/heads/new", NewOID: git.ZeroOID, OldOID: feature},
		}, nil, map[string]git.ObjectID{"refs/heads/a1": initID, "refs/tags/t1": readme, "refs/heads/new": ""}},
		{"delete unchecked", []git.RefUpdate{{Name: "refs/heads/a1", NewOID: git.ZeroOID}}, nil,
			map[string]git.ObjectID{"refs/heads/a1": ""}},
		{"delete with stale value", []git.RefUpdate{{Name: "refs/tags/t1", NewOID: git.ZeroOID, OldOID: initID}},
			[]error{git.ErrStaleRef}, map[string]git.ObjectID{"refs/tags/t1": readme}},
		{"delete expecting absence", []git.RefUpdate{{Name: "refs/tags/t1", NewOID: git.ZeroOID, OldOID: git.ZeroOID}},
			[]error{git.ErrInvalidArgument}, nil},
		{"invalid name", []git.RefUpdate{{Name: "refs/heads/a b", NewOID: initID}}, []error{git.ErrInvalidRefName}, nil},
		{"invalid id", []git.RefUpdate{{Name: "refs/heads/x", NewOID: "main"}}, []error{git.ErrInvalidObjectID}, nil},
		{"invalid old id", []git.RefUpdate{{Name: "refs/heads/x", NewOID: initID, OldOID: "abc"}}, []error{git.ErrInvalidObjectID}, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := repo.UpdateRefs(ctx, tc.updates...)
			if len(tc.errs) == 0 {
				require.NoError(t, err)
			}
			for _, want := range tc.errs {
				require.ErrorIs(t, err, want)
			}
			for ref, want := range tc.check {
				got, err := repo.ResolveRevision(ctx, ref)
				if want == "" {
					require.ErrorIs(t, err, git.ErrReferenceNotFound, ref)
					continue
				}
				require.NoError(t, err)
				require.Equal(t, want, got, ref)
			}
		})
	}
	require.NoError(t, repo.UpdateRefs(ctx))
	require.NoError(t, repo.UpdateRef(ctx, "refs/heads/single", initID, git.ZeroOID))
}

func TestRepository_updateRefRace(t *testing.T) {
	t.Parallel()
	// Concurrent creates of one branch: exactly one wins, the others see ErrStaleRef.
	repo := history(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = repo.UpdateRef(ctx, "refs/heads/race", repo.Commit("init"), git.ZeroOID)
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
		} else {
			require.ErrorIs(t, err, git.ErrStaleRef)
		}
	}
	require.Equal(t, 1, wins)
}

func TestRepository_updateRefLocked(t *testing.T) {
	t.Parallel()
	// A writer holding the ref's lock makes an update that names the old value stale (the
	// API answers "refresh and try again"), not a server error.
	repo := history(t)
	name := "refs/heads/locked"
	require.NoError(t, repo.UpdateRef(ctx, name, repo.Commit("init"), git.ZeroOID))
	lock := filepath.Join(repo.Path(), name+".lock")
	require.NoError(t, os.WriteFile(lock, nil, 0o600))
	err := repo.UpdateRef(ctx, name, repo.Commit("readme"), repo.Commit("init"))
	require.ErrorIs(t, err, git.ErrStaleRef)
	require.NoError(t, os.Remove(lock))
	require.NoError(t, repo.UpdateRef(ctx, name, repo.Commit("readme"), repo.Commit("init")))
}
