package versions_test

import (
	"context"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/pagination"
	"anvil/internal/service/mergerequests/versions"

	"github.com/stretchr/testify/require"
)

func newMR(t *testing.T, f *servertest.RepoFixture, p *ent.Project) *ent.MergeRequest {
	t.Helper()
	mr, err := f.In.Services.DB.Client.MergeRequest.Create().SetProjectID(p.ID).SetSourceProjectID(p.ID).
		SetIid(1).SetSourceBranch("feature").SetTargetBranch("main").SetTitle("mr").
		SetAuthorID(f.Users["developer"].ID).Save(context.Background())
	require.NoError(t, err)
	return mr
}

func TestRecord_versionsSurviveForcePush(t *testing.T) {
	ctx := context.Background()
	f := servertest.NewRepoFixture(t)
	p := f.ProjectWithReadme(t, "p", "public")
	r := f.Repo(t, p)
	// The first commit queues housekeeping, whose prune can race the test's object writes.
	f.In.WaitJobs(t)
	svc := f.In.Services.MergeRequestVersions
	require.NoError(t, f.In.Services.Settings.Set(ctx, "diff_max_patch_bytes", 10240))
	mainTip, ok, err := r.BranchTip(ctx, "main")
	require.NoError(t, err)
	require.True(t, ok)

	one := gittest.WriteCommit(t, r, gittest.Write{Base: mainTip, Parents: []git.ObjectID{mainTip}, Minute: 1,
		Message: "first\n\nSigned-off-by: A <a@x>\n", Files: map[string]string{
			"a.txt": "a\n", ".gitattributes": "gen/* linguist-generated\n", "gen/x.txt": "x\n",
			"web/app.min.js": "var a;\n", "bin.dat": "\x00\x01\x02", "big.txt": strings.Repeat("line\n", 5000),
		}})
	two := gittest.WriteCommit(t, r, gittest.Write{Base: one, Parents: []git.ObjectID{one}, Minute: 2,
		Message: "second\n", Files: map[string]string{"b.txt": "b\n"}})
	gittest.SetRef(t, r, git.BranchRef("feature"), two)
	mr := newMR(t, f, p)

	v1, err := svc.Record(ctx, mr)
	require.NoError(t, err)
	require.NotNil(t, v1)
	require.Equal(t, string(two), *v1.HeadCommitSha)
	require.Equal(t, string(mainTip), *v1.BaseCommitSha)
	require.Equal(t, string(mainTip), *v1.StartCommitSha)
	require.Equal(t, "collected", v1.State)
	require.Equal(t, "7", *v1.RealSize)
	require.NotNil(t, v1.PatchIDSha)
	require.Len(t, *v1.PatchIDSha, 40)
	require.Equal(t, 2, v1.CommitsCount)
	require.Equal(t, string(two), *mr.Sha)
	require.Equal(t, v1.ID, *mr.LatestDiffID)

	// Nothing moved: no new version.
	again, err := svc.Record(ctx, mr)
	require.NoError(t, err)
	require.Nil(t, again)

	d1, err := svc.Get(ctx, mr, v1.ID)
	require.NoError(t, err)
	require.Equal(t, []git.ObjectID{two, one}, []git.ObjectID{d1.Commits[0].ID, d1.Commits[1].ID})
	require.Equal(t, "A <a@x>", d1.Commits[1].TrailerMap()["Signed-off-by"])
	byPath := map[string]*ent.MergeRequestDiffFile{}
	for _, fl := range d1.Files {
		byPath[fl.NewPath] = fl
	}
	require.Equal(t, "@@ -0,0 +1 @@\n+a\n", byPath["a.txt"].Diff)
	require.True(t, byPath["a.txt"].NewFile)
	require.Equal(t, "0", byPath["a.txt"].AMode)
	require.Equal(t, "100644", byPath["a.txt"].BMode)
	require.True(t, byPath["bin.dat"].Binary)
	require.Empty(t, byPath["bin.dat"].Diff)
	require.True(t, byPath["big.txt"].TooLarge)
	require.Empty(t, byPath["big.txt"].Diff)
	require.True(t, byPath["gen/x.txt"].GeneratedFile)
	require.True(t, byPath["web/app.min.js"].GeneratedFile)
	require.False(t, byPath["a.txt"].GeneratedFile)

	// Force push: the feature branch is rewritten.
	other := gittest.WriteCommit(t, r, gittest.Write{Base: mainTip, Parents: []git.ObjectID{mainTip}, Minute: 3,
		Message: "rewritten\n", Files: map[string]string{"c.txt": "c\n"}})
	gittest.SetRef(t, r, git.BranchRef("feature"), other)
	v2, err := svc.Record(ctx, mr)
	require.NoError(t, err)
	require.NotNil(t, v2)
	require.Equal(t, "1", *v2.RealSize)
	list, err := svc.List(ctx, mr, pagination.NewOffset(1, 20))
	require.NoError(t, err)
	require.Equal(t, []int{v2.ID, v1.ID}, []int{list.Items[0].ID, list.Items[1].ID})
	// The first version still reads, and its head is kept alive.
	d1again, err := svc.Get(ctx, mr, v1.ID)
	require.NoError(t, err)
	require.Len(t, d1again.Files, 7)
	kept, ok, err := r.BranchTip(ctx, "main")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, mainTip, kept)
	id, err := r.ResolveRevision(ctx, "refs/keep-around/"+string(two))
	require.NoError(t, err)
	require.Equal(t, two, id)
	id, err = r.ResolveRevision(ctx, "refs/merge-requests/1/head")
	require.NoError(t, err)
	require.Equal(t, other, id)

	// Overflow: the file limit cuts the diff.
	require.NoError(t, f.In.Services.Settings.Set(ctx, "diff_max_files", 2))
	three := gittest.WriteCommit(t, r, gittest.Write{Base: other, Parents: []git.ObjectID{other}, Minute: 4,
		Files: map[string]string{"d.txt": "d\n", "e.txt": "e\n", "f.txt": "f\n"}})
	gittest.SetRef(t, r, git.BranchRef("feature"), three)
	v3, err := svc.Record(ctx, mr)
	require.NoError(t, err)
	require.Equal(t, "overflow", v3.State)
	require.Equal(t, "2+", *v3.RealSize)
	require.Equal(t, 2, v3.FilesCount)

	_, err = svc.Get(ctx, mr, v3.ID+100)
	require.Error(t, err)
	_ = versions.StateCollected
}
