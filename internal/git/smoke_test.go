package git_test

import (
	"context"
	"testing"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestSmoke(t *testing.T) {
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
		{Label: "init", Files: map[string]string{"README.md": "hello\n", "dir/a.txt": "a\n"}},
		{Label: "second", Files: map[string]string{"dir/a.txt": "a2\n"}, Message: "Second\n\nSigned-off-by: X <x@y>\n"},
	}, Tags: []gittest.TagSpec{{Name: "v1", Target: "init", Message: "rel"}}})
	ctx := context.Background()
	c, err := repo.ReadCommit(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", c)
	log, err := repo.Log(ctx, git.LogOptions{WithStats: true})
	t.Log(len(log), err, log[0].Stats, log[1].Stats)
	tags, err := repo.Tags(ctx, git.ListRefsOptions{})
	t.Logf("%+v %v", tags, err)
	ents, err := repo.ListTree(ctx, "main", "", git.ListTreeOptions{WithSizes: true})
	t.Logf("%+v %v", ents, err)
	ents, err = repo.ListTree(ctx, "main", "", git.ListTreeOptions{Recursive: true, WithSizes: true})
	t.Logf("%+v %v", ents, err)
	d, err := repo.Diff(ctx, string(repo.Commit("init")), "main", git.DiffOptions{})
	t.Logf("%+v %v", d, err)
	out := gittest.Git(t, repo.Path(), nil, "fsck", "--strict")
	t.Log(out)
}
