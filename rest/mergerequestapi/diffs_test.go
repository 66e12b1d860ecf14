package mergerequestapi_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/note"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// branchWith makes branch name one commit ahead of main with files.
func branchWith(t *testing.T, f *mrFixture, name string, files map[string]string) git.ObjectID {
	t.Helper()
	repo := f.Repo(t, f.P)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	id := gittest.WriteCommit(t, repo, gittest.Write{Base: main.Commit.ID, Parents: []git.ObjectID{main.Commit.ID},
		Minute: 3, Message: "add " + name + "\n", Files: files})
	gittest.SetRef(t, repo, git.BranchRef(name), id)
	return id
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestVersions_forcePush: a force push of the source branch records a second version while
// the first version's commits and diffs stay readable.
func TestVersions_forcePush(t *testing.T) {
	f := newMRFixture(t, "private")
	f.In.WaitJobs(t)
	mr := f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Add feature"})
	require.NotNil(t, mr["diff_refs"])
	assert.Equal(t, "1", mr["changes_count"])
	refs := mr["diff_refs"].(map[string]any)
	firstHead := refs["head_sha"].(string)
	assert.Equal(t, firstHead, mr["sha"])

	r := f.Do(t, "GET", f.base+"/1/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 1)
	v1 := list[0]
	assert.ElementsMatch(t, []string{"id", "head_commit_sha", "base_commit_sha", "start_commit_sha", "created_at",
		"merge_request_id", "state", "real_size", "patch_id_sha"}, keys(v1))
	assert.Equal(t, firstHead, v1["head_commit_sha"])
	assert.Equal(t, refs["base_sha"], v1["base_commit_sha"])
	assert.Equal(t, refs["start_sha"], v1["start_commit_sha"])
	assert.Equal(t, "collected", v1["state"])
	assert.Equal(t, "1", v1["real_size"])
	assert.Equal(t, mr["id"], v1["merge_request_id"])
	assert.Len(t, v1["patch_id_sha"], 40)

	// Force push through the commits API: feature is rebuilt from main.
	r = f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/repository/commits", "developer", js(t, map[string]any{
		"branch": "feature", "start_branch": "main", "force": true, "commit_message": "Rewrite\n\nSigned-off-by: Dev <dev@example.com>",
		"actions": []map[string]any{{"action": "create", "file_path": "other.txt", "content": "other\n"}},
	}))
	require.Equal(t, 201, r.Status, r.String())
	newHead := servertest.Object(t, r)["id"].(string)
	f.In.WaitJobs(t)

	r = f.Do(t, "GET", f.base+"/1/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	list = servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, newHead, list[0]["head_commit_sha"])
	assert.Equal(t, v1["id"], list[1]["id"])
	assert.Equal(t, "2", r.Header.Get("X-Total"))

	// The first version still reads: its commit and its diff.
	r = f.Do(t, "GET", f.base+"/1/versions/"+strconv.Itoa(int(v1["id"].(float64))), "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	full := servertest.Object(t, r)
	commits := full["commits"].([]any)
	require.Len(t, commits, 1)
	assert.Equal(t, firstHead, commits[0].(map[string]any)["id"])
	diffs := full["diffs"].([]any)
	require.Len(t, diffs, 1)
	assert.Equal(t, map[string]any{
		"diff": "@@ -0,0 +1 @@\n+feature.txt 1ns\n", "collapsed": false, "too_large": false,
		"new_path": "feature.txt", "old_path": "feature.txt", "a_mode": "0", "b_mode": "100644",
		"new_file": true, "renamed_file": false, "deleted_file": false, "generated_file": false,
	}, diffs[0])

	// The second version, with unidiff headers.
	r = f.Do(t, "GET", f.base+"/1/versions/"+strconv.Itoa(int(list[0]["id"].(float64)))+"?unidiff=true", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	full = servertest.Object(t, r)
	assert.Equal(t, "--- /dev/null\n+++ b/other.txt\n@@ -0,0 +1 @@\n+other\n", full["diffs"].([]any)[0].(map[string]any)["diff"])
	c := full["commits"].([]any)[0].(map[string]any)
	assert.Equal(t, newHead, c["id"])
	assert.Equal(t, map[string]any{"Signed-off-by": "Dev <dev@example.com>"}, c["trailers"])

	// The push reset the stored status (lists show it); the single read checks it live again.
	assert.Equal(t, "unchecked", listedMergeStatus(t, f))
	// The merge request follows the new head.
	r = f.Do(t, "GET", f.base+"/1", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, newHead, got["sha"])
	assert.Equal(t, newHead, got["diff_refs"].(map[string]any)["head_sha"])
	assert.Equal(t, "can_be_merged", got["merge_status"])

	// The merge request's commits are the latest version's.
	r = f.Do(t, "GET", f.base+"/1/commits", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	cl := servertest.List(t, r)
	require.Len(t, cl, 1)
	assert.Equal(t, newHead, cl[0]["id"])
	assert.Equal(t, "Rewrite", cl[0]["title"])
	assert.Equal(t, f.In.URL+"/g/app/-/commit/"+newHead, cl[0]["web_url"])

	// The push's system note names the added commit (the REST notes of merge requests are
	// another helper's; read the row).
	n, err := f.In.Services.DB.Client.Note.Query().Where(note.NoteableTypeEQ(note.NoteableTypeMergeRequest), note.System(true)).Only(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "added 1 commit\n\n<ul><li>"+newHead[:8]+" - Rewrite</li></ul>\n\n[Compare with previous version](/g/app/-/merge_requests/1/diffs?diff_id="+
		strconv.Itoa(int(list[0]["id"].(float64)))+"&start_sha="+firstHead+")", n.Body)
	require.NotNil(t, n.AuthorID)
	assert.Equal(t, f.Users["developer"].ID, *n.AuthorID)

	// The old head is kept around.
	repo := f.Repo(t, f.P)
	id, err := repo.ResolveRevision(context.Background(), "refs/keep-around/"+firstHead)
	require.NoError(t, err)
	assert.Equal(t, firstHead, string(id))
}

// TestDiffs_limitsAndFlags: overflow under a lowered diff_max_files, binary and too-large
// files with empty diffs, generated files, and the pages of /diffs.
func TestDiffs_limitsAndFlags(t *testing.T) {
	ctx := context.Background()
	f := newMRFixture(t, "public")
	f.In.WaitJobs(t)
	require.NoError(t, f.In.Services.Settings.Set(ctx, "diff_max_patch_bytes", 10240))
	branchWith(t, f, "flags", map[string]string{
		"a.txt": "a\n", "bin.dat": "\x00\x01\x02\x03", "big.txt": strings.Repeat("0123456789\n", 2000),
		".gitattributes": "docs/** linguist-generated\n", "docs/api.md": "api\n", "yarn.lock": "lock\n",
	})
	f.create(t, "developer", map[string]any{"source_branch": "flags", "target_branch": "main", "title": "Flags"})

	r := f.Do(t, "GET", f.base+"/1/diffs?per_page=100", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	byPath := map[string]map[string]any{}
	for _, d := range servertest.List(t, r) {
		byPath[d["new_path"].(string)] = d
	}
	require.Len(t, byPath, 6)
	assert.Equal(t, "", byPath["bin.dat"]["diff"])
	assert.Equal(t, "", byPath["big.txt"]["diff"])
	assert.Equal(t, true, byPath["big.txt"]["too_large"])
	assert.Equal(t, true, byPath["docs/api.md"]["generated_file"])
	assert.Equal(t, true, byPath["yarn.lock"]["generated_file"])
	assert.Equal(t, false, byPath["a.txt"]["generated_file"])
	assert.Equal(t, "@@ -0,0 +1 @@\n+a\n", byPath["a.txt"]["diff"])

	// Pages of two.
	r = f.Do(t, "GET", f.base+"/1/diffs?per_page=2&page=2", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 2)
	assert.Equal(t, "6", r.Header.Get("X-Total"))
	assert.Equal(t, "3", r.Header.Get("X-Total-Pages"))
	assert.Equal(t, "2", r.Header.Get("X-Page"))
	assert.Equal(t, "20", f.Do(t, "GET", f.base+"/1/diffs", "", nil).Header.Get("X-Per-Page"))

	// changes: the merge request with every file, not overflowing.
	r = f.Do(t, "GET", f.base+"/1/changes", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	ch := servertest.Object(t, r)
	assert.Equal(t, false, ch["overflow"])
	assert.Len(t, ch["changes"], 6)
	assert.Equal(t, "Flags", ch["title"])

	// Overflow: three files at most.
	require.NoError(t, f.In.Services.Settings.Set(ctx, "diff_max_files", 3))
	branchWith(t, f, "many", map[string]string{"1.txt": "1\n", "2.txt": "2\n", "3.txt": "3\n", "4.txt": "4\n", "5.txt": "5\n"})
	mr := f.create(t, "developer", map[string]any{"source_branch": "many", "target_branch": "main", "title": "Many"})
	assert.Equal(t, "3+", mr["changes_count"])
	r = f.Do(t, "GET", f.base+"/2/changes", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	ch = servertest.Object(t, r)
	assert.Equal(t, true, ch["overflow"])
	assert.Len(t, ch["changes"], 3)
	r = f.Do(t, "GET", f.base+"/2/versions", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	v := servertest.List(t, r)[0]
	assert.Equal(t, "overflow", v["state"])
	assert.Equal(t, "3+", v["real_size"])
	// access_raw_diffs reads the repository, past the stored limits.
	r = f.Do(t, "GET", f.base+"/2/changes?access_raw_diffs=true", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.Object(t, r)["changes"], 5)
}

// TestDiffs_permissions: the diff routes of a private project's merge request are 404 to
// those who cannot read it.
func TestDiffs_permissions(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Add feature"})
	r := f.Do(t, "GET", f.base+"/1/versions", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	vid := strconv.Itoa(int(servertest.List(t, r)[0]["id"].(float64)))
	for _, p := range []string{"/changes", "/diffs", "/versions", "/versions/" + vid, "/commits"} {
		for _, role := range []string{"", "outsider"} {
			r := f.Do(t, "GET", f.base+"/1"+p, role, nil)
			assert.Equal(t, 404, r.Status, "%s as %q: %s", p, role, r.String())
			assert.Equal(t, `{"message":"404 Project Not Found"}`, string(r.Body), p)
		}
		r := f.Do(t, "GET", f.base+"/9"+p, "reporter", nil)
		assert.Equal(t, 404, r.Status, p)
		assert.Equal(t, `{"message":"404 Merge Request Not Found"}`, string(r.Body), p)
	}
	r = f.Do(t, "GET", f.base+"/1/versions/999999", "reporter", nil)
	assert.Equal(t, 404, r.Status)
	assert.Equal(t, `{"message":"404 Not found"}`, string(r.Body))
	r = f.Do(t, "GET", f.base+"/1/versions/abc", "reporter", nil)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, `{"error":"version_id is invalid"}`, string(r.Body))
}

// TestVersions_pushesAndForks: a push adding a commit records a version, a push to the target
// branch only sends the merge status back to unchecked, and a merge request from a fork gets
// its version (the fork's commits brought into the target repository).
func TestVersions_pushesAndForks(t *testing.T) {
	ctx := context.Background()
	f := newMRFixture(t, "public")
	f.In.WaitJobs(t)
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Add feature"})
	commit := func(branch, file string) string {
		t.Helper()
		r := f.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/repository/commits", "maintainer", js(t, map[string]any{
			"branch": branch, "commit_message": "Add " + file,
			"actions": []map[string]any{{"action": "create", "file_path": file, "content": file + "\n"}},
		}))
		require.Equal(t, 201, r.Status, r.String())
		f.In.WaitJobs(t)
		return servertest.Object(t, r)["id"].(string)
	}
	client := f.In.Services.DB.Client

	head := commit("feature", "more.txt")
	r := f.Do(t, "GET", f.base+"/1/versions", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := servertest.List(t, r)
	require.Len(t, list, 2)
	assert.Equal(t, head, list[0]["head_commit_sha"])
	assert.Equal(t, "2", list[0]["real_size"])
	r = f.Do(t, "GET", f.base+"/1/commits", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Len(t, servertest.List(t, r), 2)

	// A push to the target branch: no new version, the merge status is unknown again.
	require.NoError(t, client.MergeRequest.Update().SetMergeStatus("can_be_merged").Exec(ctx))
	commit("main", "target.txt")
	assert.Equal(t, "unchecked", listedMergeStatus(t, f))
	r = f.Do(t, "GET", f.base+"/1/versions", "", nil)
	assert.Len(t, servertest.List(t, r), 2)

	// From a fork.
	forker, forkerToken := f.In.NewUser(t, "forker")
	_ = forker
	r = f.In.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/fork", forkerToken, nil)
	require.Equal(t, 201, r.Status, r.String())
	f.In.WaitJobs(t)
	fid := int(servertest.Object(t, r)["id"].(float64))
	r = f.In.Do(t, "POST", "/projects/"+strconv.Itoa(fid)+"/repository/commits", forkerToken, js(t, map[string]any{
		"branch": "from-fork", "start_branch": "main", "commit_message": "Fork work",
		"actions": []map[string]any{{"action": "create", "file_path": "fork.txt", "content": "fork\n"}},
	}))
	require.Equal(t, 201, r.Status, r.String())
	forkHead := servertest.Object(t, r)["id"].(string)
	r = f.In.Do(t, "POST", "/projects/"+strconv.Itoa(fid)+"/merge_requests", forkerToken, js(t, map[string]any{
		"source_branch": "from-fork", "target_branch": "main", "title": "From the fork", "target_project_id": f.P.ID}))
	require.Equal(t, 201, r.Status, r.String())
	mr := servertest.Object(t, r)
	assert.Equal(t, forkHead, mr["sha"])
	iid := strconv.Itoa(int(mr["iid"].(float64)))
	r = f.Do(t, "GET", f.base+"/"+iid+"/diffs", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	d := servertest.List(t, r)
	require.Len(t, d, 1)
	assert.Equal(t, "fork.txt", d[0]["new_path"])
	// The fork's head is in the target repository, kept around.
	id, err := f.Repo(t, f.P).ResolveRevision(ctx, "refs/keep-around/"+forkHead)
	require.NoError(t, err)
	assert.Equal(t, forkHead, string(id))
}

// listedMergeStatus is merge request !1's stored merge_status, as the project list shows it
// (lists do not recheck mergeability; the single read does).
func listedMergeStatus(t *testing.T, f *mrFixture) string {
	t.Helper()
	r := f.Do(t, "GET", f.base+"?iids[]=1", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	var list []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &list))
	require.Len(t, list, 1)
	return list[0]["merge_status"].(string)
}
