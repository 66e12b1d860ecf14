package mergerequestapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/mergerequest"

	"github.com/stretchr/testify/require"
)

const root = servertest.RootToken

// TestMerge_mergeCommit merges a diverged branch with a merge commit: GitLab's message, two
// parents, the merge request merged by root, a push on main, and the result cloned over HTTP.
func TestMerge_mergeCommit(t *testing.T) {
	w := newMergeWorld(t)
	pid, path := w.project(t, "merging", nil)
	feature := w.commit(t, pid, root, "feature", "main", "Add feature", map[string]string{"feature.txt": "feature\n"})
	mainTip := w.commit(t, pid, root, "main", "", "Touch main", map[string]string{"main.txt": "main\n"})
	iid := w.openMR(t, pid, root, "feature", "Add a feature", map[string]any{"description": "Long text"})

	r, mr := w.merge(t, pid, iid, root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", mr["state"])
	require.Equal(t, "root", mr["merged_by"].(map[string]any)["username"])
	require.Equal(t, "root", mr["merge_user"].(map[string]any)["username"])
	require.NotNil(t, mr["merged_at"])
	require.Nil(t, mr["squash_commit_sha"])
	mergeSHA := mr["merge_commit_sha"].(string)
	require.Equal(t, mergeSHA, w.branchTip(t, pid, "main"))

	c := w.commitOf(t, pid, mergeSHA)
	require.Equal(t, []any{mainTip, feature}, c["parent_ids"])
	require.Equal(t, fmt.Sprintf("Merge branch 'feature' into 'main'\n\nAdd a feature\n\nSee merge request %s!%d", path, iid), c["message"])
	require.NotEmpty(t, w.branchTip(t, pid, "feature"))

	// The merge is a push of main by root: it shows in the project's events.
	r = w.in.Do(t, "GET", fmt.Sprintf("/projects/%d/events?action=pushed", pid), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Contains(t, string(r.Body), mergeSHA[:8])

	// A second merge of a merged merge request: 405.
	r, body := w.merge(t, pid, iid, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	require.Equal(t, "405 Method Not Allowed", body["message"])

	// The clone has the merge on main.
	dir := w.clone(t, path)
	require.Equal(t, mergeSHA, w.git(t, dir, "rev-parse", "HEAD"))
	require.Equal(t, mainTip+" "+feature, w.git(t, dir, "log", "-1", "--format=%P"))
	require.Equal(t, "1", w.git(t, dir, "rev-list", "--merges", "--count", "HEAD"))
	require.Contains(t, w.git(t, dir, "ls-files"), "feature.txt")
}

// TestMerge_methods merges with rebase_merge and ff: refused (422) until the source is rebased
// onto the target, then a merge commit on top (rebase_merge) or main moved to the source (ff).
func TestMerge_methods(t *testing.T) {
	w := newMergeWorld(t)
	for _, method := range []string{"rebase_merge", "ff"} {
		t.Run(method, func(t *testing.T) {
			pid, path := w.project(t, "method-"+strings.ReplaceAll(method, "_", "-"), map[string]any{"merge_method": method})
			w.commit(t, pid, root, "topic", "main", "Topic one", map[string]string{"one.txt": "1\n"})
			w.commit(t, pid, root, "topic", "", "Topic two", map[string]string{"two.txt": "2\n"})
			mainTip := w.commit(t, pid, root, "main", "", "Main moves", map[string]string{"main.txt": "m\n"})
			iid := w.openMR(t, pid, root, "topic", "Topic", nil)

			r, body := w.merge(t, pid, iid, root, nil)
			require.Equal(t, 422, r.Status, r.String())
			require.Equal(t, "Branch cannot be merged", body["message"])
			r, get := w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d", pid, iid), root, nil)
			require.Equal(t, 200, r.Status, r.String())
			require.Equal(t, "opened", get["state"])

			r, body = w.do(t, "PUT", fmt.Sprintf("/projects/%d/merge_requests/%d/rebase", pid, iid), root, nil)
			require.Equal(t, 202, r.Status, r.String())
			require.Equal(t, map[string]any{"rebase_in_progress": true}, body)
			rebased := w.branchTip(t, pid, "topic")
			rc := w.commitOf(t, pid, rebased)
			require.Equal(t, "Topic two", rc["title"])
			first := w.commitOf(t, pid, rc["parent_ids"].([]any)[0].(string))
			require.Equal(t, []any{mainTip}, first["parent_ids"])

			r, mr := w.merge(t, pid, iid, root, map[string]any{"sha": rebased})
			require.Equal(t, 200, r.Status, r.String())
			require.Equal(t, "merged", mr["state"])
			tipNow := w.branchTip(t, pid, "main")
			dir := w.clone(t, path)
			if method == "ff" {
				require.Equal(t, rebased, tipNow)
				require.Equal(t, rebased, mr["merge_commit_sha"])
				require.Equal(t, "0", w.git(t, dir, "rev-list", "--merges", "--count", "HEAD"))
			} else {
				require.Equal(t, mr["merge_commit_sha"], tipNow)
				require.Equal(t, mainTip+" "+rebased, w.git(t, dir, "log", "-1", "--format=%P"))
			}
			require.Equal(t, "Topic two\nTopic one\nMain moves", w.git(t, dir, "log", "--no-merges", "--topo-order", "-3", "--format=%s"))
		})
	}
}

// TestMerge_squash squashes two commits into one authored by the merge request's author, with
// the title as message, then merges it; the source branch is removed on request.
func TestMerge_squash(t *testing.T) {
	w := newMergeWorld(t)
	pid, path := w.project(t, "squashing", nil)
	base := w.branchTip(t, pid, "main")
	w.commit(t, pid, root, "feature", "main", "One", map[string]string{"a.txt": "a\n"})
	w.commit(t, pid, root, "feature", "", "Two", map[string]string{"b.txt": "b\n"})
	iid := w.openMR(t, pid, root, "feature", "Squashed feature", nil)

	r, mr := w.merge(t, pid, iid, root, map[string]any{"squash": true, "should_remove_source_branch": true})
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, true, mr["squash"])
	require.Equal(t, true, mr["should_remove_source_branch"])
	squash := mr["squash_commit_sha"].(string)
	sc := w.commitOf(t, pid, squash)
	require.Equal(t, []any{base}, sc["parent_ids"])
	require.Equal(t, "Squashed feature", sc["message"])
	require.Equal(t, "Administrator", sc["author_name"])
	merge := w.commitOf(t, pid, mr["merge_commit_sha"].(string))
	require.Equal(t, []any{base, squash}, merge["parent_ids"])
	require.Empty(t, w.branchTip(t, pid, "feature"), "the source branch is removed")

	dir := w.clone(t, path)
	require.Equal(t, "a.txt\nb.txt", w.git(t, dir, "ls-files", "a.txt", "b.txt"))
	require.Equal(t, "2", w.git(t, dir, "rev-list", "--count", base+"..HEAD"))

	// squash_option never wins over the request: no squash commit, the branch stays.
	pid2, _ := w.project(t, "never-squash", map[string]any{"squash_option": "never"})
	w.commit(t, pid2, root, "f", "main", "One", map[string]string{"a.txt": "a\n"})
	w.commit(t, pid2, root, "f", "", "Two", map[string]string{"b.txt": "b\n"})
	iid = w.openMR(t, pid2, root, "f", "Not squashed", nil)
	r, mr = w.merge(t, pid2, iid, root, map[string]any{"squash": true, "merge_commit_message": "Custom message"})
	require.Equal(t, 200, r.Status, r.String())
	require.Nil(t, mr["squash_commit_sha"])
	require.Equal(t, "Custom message", w.commitOf(t, pid2, mr["merge_commit_sha"].(string))["message"])
	require.NotEmpty(t, w.branchTip(t, pid2, "f"))
}

// TestMerge_refusals covers GitLab's answers: 401 without merge rights, 405 for drafts, 422 on
// conflicts, 409 for a stale sha, 404 for an unknown merge request.
func TestMerge_refusals(t *testing.T) {
	w := newMergeWorld(t)
	ctx := context.Background()
	pid, _ := w.project(t, "refusals", nil)
	p, err := w.in.DB.Client.Project.Get(ctx, pid)
	require.NoError(t, err)
	dev, devToken := w.in.NewUser(t, "dev")
	w.in.AddProjectMember(t, p, dev, 30)
	rep, repToken := w.in.NewUser(t, "rep")
	w.in.AddProjectMember(t, p, rep, 20)
	_, outsiderToken := w.in.NewUser(t, "outsider")

	head := w.commit(t, pid, root, "feature", "main", "Feature", map[string]string{"f.txt": "f\n"})
	iid := w.openMR(t, pid, root, "feature", "Feature", nil)

	// main is protected by default: developers may not merge into it, reporters not at all.
	for _, token := range []string{devToken, repToken} {
		r, body := w.merge(t, pid, iid, token, nil)
		require.Equal(t, 401, r.Status, r.String())
		require.Equal(t, "401 Unauthorized", body["message"])
	}
	r, body := w.merge(t, pid, iid, outsiderToken, nil) // a private project
	require.Equal(t, 404, r.Status, r.String())
	require.Equal(t, "404 Project Not Found", body["message"])
	r, _ = w.merge(t, pid, iid, "", nil)
	require.Equal(t, 401, r.Status, r.String())
	r, body = w.merge(t, pid, 99, root, nil)
	require.Equal(t, 404, r.Status, r.String())
	require.Equal(t, "404 Merge Request Not Found", body["message"])

	r, body = w.merge(t, pid, iid, root, map[string]any{"sha": "0123456789012345678901234567890123456789"})
	require.Equal(t, 409, r.Status, r.String())
	require.Equal(t, "SHA does not match HEAD of source branch: "+head, body["message"])

	// A draft: 405.
	w.commit(t, pid, root, "drafty", "main", "Draft work", map[string]string{"d.txt": "d\n"})
	draft := w.openMR(t, pid, root, "drafty", "Draft: not yet", nil)
	r, body = w.merge(t, pid, draft, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	require.Equal(t, "405 Method Not Allowed", body["message"])

	// Conflicts: 422, and the merge request shows them.
	w.commit(t, pid, root, "left", "main", "Left", map[string]string{"same.txt": "left\n"})
	w.commit(t, pid, root, "main", "", "Right", map[string]string{"same.txt": "right\n"})
	conflict := w.openMR(t, pid, root, "left", "Conflicting", nil)
	r, body = w.merge(t, pid, conflict, root, nil)
	require.Equal(t, 422, r.Status, r.String())
	require.Equal(t, "Branch cannot be merged", body["message"])
	r, get := w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d", pid, conflict), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "cannot_be_merged", get["merge_status"])
	require.Equal(t, true, get["has_conflicts"])
	r, body = w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d/merge_ref", pid, conflict), root, nil)
	require.Equal(t, 400, r.Status, r.String())
	require.Equal(t, "Merge request is not mergeable", body["message"])

	// The merge ref of a mergeable one merges main and the source.
	r, body = w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d/merge_ref", pid, iid), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	ref := w.commitOf(t, pid, body["commit_id"].(string))
	require.Equal(t, []any{w.branchTip(t, pid, "main"), head}, ref["parent_ids"])

	// Rebase needs push access to the source branch.
	r, body = w.do(t, "PUT", fmt.Sprintf("/projects/%d/merge_requests/%d/rebase", pid, iid), repToken, nil)
	require.Equal(t, 403, r.Status, r.String())
	require.Equal(t, "403 Forbidden - Cannot push to source branch", body["message"])
	// A conflicting rebase is accepted and reports its failure in merge_error.
	r, _ = w.do(t, "PUT", fmt.Sprintf("/projects/%d/merge_requests/%d/rebase", pid, conflict), devToken, nil)
	require.Equal(t, 202, r.Status, r.String())
	m, err := w.in.DB.Client.MergeRequest.Query().Where(mergerequest.ProjectID(pid), mergerequest.Iid(conflict)).Only(ctx)
	require.NoError(t, err)
	require.Equal(t, "Rebase failed: Rebase locally, resolve all conflicts, then push the branch.", *m.MergeError)
}

// TestMerge_fork merges a merge request whose source branch lives in a fork.
func TestMerge_fork(t *testing.T) {
	w := newMergeWorld(t)
	ctx := context.Background()
	pid, path := w.project(t, "upstream", map[string]any{"visibility": "public"})
	forker, forkerToken := w.in.NewUser(t, "forker")
	_ = forker
	r, fork := w.do(t, "POST", fmt.Sprintf("/projects/%d/fork", pid), forkerToken, nil)
	require.Equal(t, 201, r.Status, r.String())
	w.in.WaitJobs(t)
	fid := int(fork["id"].(float64))
	head := w.commit(t, fid, forkerToken, "from-fork", "main", "Fork work", map[string]string{"fork.txt": "fork\n"})
	r, mr := w.do(t, "POST", fmt.Sprintf("/projects/%d/merge_requests", fid), forkerToken, map[string]any{
		"source_branch": "from-fork", "target_branch": "main", "title": "From the fork", "target_project_id": pid})
	require.Equal(t, 201, r.Status, r.String())
	iid := int(mr["iid"].(float64))

	r, mr = w.merge(t, pid, iid, root, map[string]any{"sha": head})
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", mr["state"])
	require.Equal(t, float64(fid), mr["source_project_id"])
	dir := w.clone(t, path)
	require.Equal(t, mr["merge_commit_sha"], w.git(t, dir, "rev-parse", "HEAD"))
	require.Equal(t, "fork\n", w.git(t, dir, "show", "HEAD:fork.txt")+"\n")
	_ = ctx
}

// TestMerge_race sends two merges of one merge request at once: one merges (200), the other
// is refused as GitLab refuses a locked or merged merge request (405), and main has one merge.
func TestMerge_race(t *testing.T) {
	w := newMergeWorld(t)
	pid, path := w.project(t, "racing", nil)
	w.commit(t, pid, root, "feature", "main", "Feature", map[string]string{"f.txt": "f\n"})
	w.commit(t, pid, root, "main", "", "Main", map[string]string{"m.txt": "m\n"})
	iid := w.openMR(t, pid, root, "feature", "Race", nil)
	url := fmt.Sprintf("%s/api/v4/projects/%d/merge_requests/%d/merge", w.in.URL, pid, iid)

	statuses := make([]int, 2)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("PUT", url, nil)
			req.Header.Set("PRIVATE-TOKEN", root)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		}()
	}
	close(start)
	wg.Wait()
	require.ElementsMatch(t, []int{200, 405}, statuses)
	dir := w.clone(t, path)
	require.Equal(t, "1", w.git(t, dir, "rev-list", "--merges", "--count", "HEAD"))
}

// TestMerge_recovery settles merges a crash interrupted: a locked merge request whose target
// already has the merge is finished as merged; one whose merge never landed is released once
// the lock is stale, and merges.
func TestMerge_recovery(t *testing.T) {
	w := newMergeWorld(t)
	ctx := context.Background()
	c := w.in.DB.Client
	pid, _ := w.project(t, "recovery", nil)
	w.commit(t, pid, root, "landed", "main", "Landed", map[string]string{"l.txt": "l\n"})
	landed := w.openMR(t, pid, root, "landed", "Landed", nil)
	r, mr := w.merge(t, pid, landed, root, nil)
	require.Equal(t, 200, r.Status, r.String())
	mergeSHA := mr["merge_commit_sha"].(string)
	// Pretend the process died between moving main and recording the merge.
	require.NoError(t, c.MergeRequest.Update().Where(mergerequest.ProjectID(pid), mergerequest.Iid(landed)).
		SetState(mergerequest.StateLocked).SetInProgressMergeCommitSha(mergeSHA).ClearMergeCommitSha().
		ClearMergedAt().ClearMergedByID().Exec(ctx))
	r, body := w.merge(t, pid, landed, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	require.Equal(t, "405 Method Not Allowed", body["message"])
	r, get := w.do(t, "GET", fmt.Sprintf("/projects/%d/merge_requests/%d", pid, landed), root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", get["state"])
	require.Equal(t, mergeSHA, get["merge_commit_sha"])
	require.Equal(t, "root", get["merged_by"].(map[string]any)["username"])

	// A lock whose merge never reached main, older than the lock timeout, is released.
	w.commit(t, pid, root, "stuck", "main", "Stuck", map[string]string{"s.txt": "s\n"})
	stuck := w.openMR(t, pid, root, "stuck", "Stuck", nil)
	require.NoError(t, c.MergeRequest.Update().Where(mergerequest.ProjectID(pid), mergerequest.Iid(stuck)).
		SetState(mergerequest.StateLocked).SetInProgressMergeCommitSha("0123456789012345678901234567890123456789").
		SetUpdatedAt(time.Now().Add(-time.Hour)).Exec(ctx))
	r, mr = w.merge(t, pid, stuck, root, nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", mr["state"])
}

// TestMerge_projectRules: unresolved threads block the merge (405) when the project requires
// them resolved; a required pipeline (none can run) makes a merge 405 and auto_merge wait,
// until it is cancelled.
func TestMerge_projectRules(t *testing.T) {
	w := newMergeWorld(t)
	ctx := context.Background()
	c := w.in.DB.Client
	pid, _ := w.project(t, "rules", map[string]any{"only_allow_merge_if_all_discussions_are_resolved": true})
	w.commit(t, pid, root, "feature", "main", "Feature", map[string]string{"f.txt": "f\n"})
	iid := w.openMR(t, pid, root, "feature", "Feature", nil)
	m, err := c.MergeRequest.Query().Where(mergerequest.ProjectID(pid), mergerequest.Iid(iid)).Only(ctx)
	require.NoError(t, err)
	thread := c.Note.Create().SetNoteableType("MergeRequest").SetNoteableID(m.ID).SetNoteableIid(iid).
		SetProjectID(pid).SetBody("please fix").SetDiscussionID(strings.Repeat("a", 40)).SetResolvable(true).
		SaveX(ctx)
	r, body := w.merge(t, pid, iid, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	require.Equal(t, "405 Method Not Allowed", body["message"])
	c.Note.UpdateOne(thread).SetResolvedAt(time.Now()).ExecX(ctx)

	r, _ = w.do(t, "PUT", fmt.Sprintf("/projects/%d", pid), root, map[string]any{"only_allow_merge_if_pipeline_succeeds": true})
	require.Equal(t, 200, r.Status, r.String())
	r, _ = w.merge(t, pid, iid, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	r, mr := w.merge(t, pid, iid, root, map[string]any{"merge_when_pipeline_succeeds": true})
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "opened", mr["state"])
	require.Equal(t, true, mr["merge_when_pipeline_succeeds"])
	require.Equal(t, "root", mr["merge_user"].(map[string]any)["username"])

	cancel := fmt.Sprintf("/projects/%d/merge_requests/%d/cancel_merge_when_pipeline_succeeds", pid, iid)
	r, mr = w.do(t, "POST", cancel, root, nil)
	require.Equal(t, 201, r.Status, r.String())
	require.Equal(t, false, mr["merge_when_pipeline_succeeds"])
	r, body = w.do(t, "POST", cancel, root, nil)
	require.Equal(t, 405, r.Status, r.String())
	require.Equal(t, "405 Method Not Allowed", body["message"])

	// Without the pipeline rule, auto_merge merges at once.
	r, _ = w.do(t, "PUT", fmt.Sprintf("/projects/%d", pid), root, map[string]any{"only_allow_merge_if_pipeline_succeeds": false})
	require.Equal(t, 200, r.Status, r.String())
	r, mr = w.merge(t, pid, iid, root, map[string]any{"auto_merge": true})
	require.Equal(t, 200, r.Status, r.String())
	require.Equal(t, "merged", mr["state"])
}
