package mergerequestapi_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestShape: a merge request's JSON as GitLab's Entities::MergeRequest on create
// and on the single read, field by field.
func TestMergeRequestShape(t *testing.T) {
	f := newMRFixture(t, "private")
	dev, rep := f.Users["developer"], f.Users["reporter"]
	ms := f.In.Do(t, "POST", "/projects/"+strconv.Itoa(f.P.ID)+"/milestones", f.Tokens["maintainer"], `{"title":"v1"}`)
	require.Equal(t, 201, ms.Status, ms.String())
	msID := int(servertest.Object(t, ms)["id"].(float64))

	mr := f.create(t, "developer", map[string]any{
		"source_branch": "feature", "target_branch": "main", "title": "Draft: Add feature",
		"description": "Adds it\n\n- [x] code\n- [ ] docs\n* [X] tests", "labels": "ui,bug",
		"assignee_ids": []int{dev.ID}, "reviewer_ids": []int{rep.ID}, "milestone_id": msID,
		"remove_source_branch": true, "squash": true,
	})
	repo := f.Repo(t, f.P)
	head, err := repo.Branch(context.Background(), "feature")
	require.NoError(t, err)
	user := func(u string) map[string]any {
		got := f.Users[u]
		return map[string]any{"id": float64(got.ID), "username": u, "name": got.Name, "state": "active", "locked": false,
			"avatar_url": mr["author"].(map[string]any)["avatar_url"], "web_url": f.In.URL + "/" + u}
	}
	devUser := user("developer")
	devUser["avatar_url"] = mr["author"].(map[string]any)["avatar_url"]
	repUser := user("reporter")
	repUser["avatar_url"] = mr["reviewers"].([]any)[0].(map[string]any)["avatar_url"]
	web := f.In.URL + "/g/app/-/merge_requests/1"
	want := map[string]any{
		"id": mr["id"], "iid": float64(1), "project_id": float64(f.P.ID), "title": "Draft: Add feature",
		"description": "Adds it\n\n- [x] code\n- [ ] docs\n* [X] tests", "state": "opened",
		"merged_by": nil, "merge_user": nil, "merged_at": nil, "merge_after": nil, "prepared_at": nil,
		"closed_by": nil, "closed_at": nil, "target_branch": "main", "source_branch": "feature",
		"user_notes_count": float64(0), "upvotes": float64(0), "downvotes": float64(0),
		"author": devUser, "assignees": []any{devUser}, "assignee": devUser, "reviewers": []any{repUser},
		"source_project_id": float64(f.P.ID), "target_project_id": float64(f.P.ID), "labels": []any{"bug", "ui"},
		"draft": true, "imported": false, "imported_from": "none", "work_in_progress": true,
		"merge_when_pipeline_succeeds": false, "merge_status": "unchecked", "detailed_merge_status": "unchecked",
		"sha": string(head.Commit.ID), "merge_commit_sha": nil, "squash_commit_sha": nil, "discussion_locked": nil,
		"should_remove_source_branch": nil, "force_remove_source_branch": true, "reference": "!1",
		"references": map[string]any{"short": "!1", "relative": "!1", "full": "g/app!1"}, "web_url": web,
		"time_stats": map[string]any{"time_estimate": float64(0), "total_time_spent": float64(0),
			"human_time_estimate": nil, "human_total_time_spent": nil},
		"squash": true, "squash_on_merge": true,
		"task_completion_status": map[string]any{"count": float64(3), "completed_count": float64(2)},
		"has_conflicts":          false, "blocking_discussions_resolved": true, "approvals_before_merge": nil,
		"subscribed": true, "changes_count": nil, "latest_build_started_at": nil, "latest_build_finished_at": nil,
		"first_deployed_to_production_at": nil, "pipeline": nil, "head_pipeline": nil, "diff_refs": nil,
		"merge_error": nil, "first_contribution": true,
		// main is protected by default: Maintainers merge into it, not Developers.
		"user": map[string]any{"can_merge": false},
	}
	delete(mr, "milestone")
	for _, k := range []string{"created_at", "updated_at"} {
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, mr[k])
		delete(mr, k)
	}
	// A diff version, once the diff domain records one at creation, fills these in.
	for _, k := range []string{"changes_count", "diff_refs", "merge_status", "detailed_merge_status", "prepared_at"} {
		want[k] = mr[k]
	}
	assert.Equal(t, want, mr)

	// A maintainer reads it: not subscribed (not taking part), may merge; the milestone and
	// the labels as details. The reviewer takes part, so is subscribed.
	r := f.Do(t, "GET", f.base+"/1?with_labels_details=true", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, false, got["subscribed"])
	assert.Equal(t, map[string]any{"can_merge": true}, got["user"])
	r = f.Do(t, "GET", f.base+"/1", "reporter", nil)
	assert.Equal(t, true, servertest.Object(t, r)["subscribed"])
	assert.Equal(t, "v1", got["milestone"].(map[string]any)["title"])
	ls := got["labels"].([]any)
	require.Len(t, ls, 2)
	assert.Equal(t, "bug", ls[0].(map[string]any)["name"])
	assert.NotContains(t, got, "diverged_commits_count")
	assert.NotContains(t, got, "rebase_in_progress")
	assert.NotContains(t, got, "allow_collaboration", "shown for merge requests from forks only")

	// Opt-in fields.
	r = f.Do(t, "GET", f.base+"/1?include_diverged_commits_count=true&include_rebase_in_progress=true", "reporter", nil)
	got = servertest.Object(t, r)
	assert.Contains(t, got, "diverged_commits_count")
	assert.Equal(t, false, got["rebase_in_progress"])

	// Not found: another iid, a non-number.
	for _, iid := range []string{"2", "x"} {
		r = f.Do(t, "GET", f.base+"/"+iid, "reporter", nil)
		servertest.RequireError(t, r, 404, "message", "404 Merge Request Not Found")
	}
}

// TestMergeRequestDivergedCommitsCount: include_diverged_commits_count=true shows GitLab's
// diverged_commits_count, the commits of the target branch the source branch lacks; 0 once
// the source branch is gone.
func TestMergeRequestDivergedCommitsCount(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main", "title": "Feature"})
	diverged := func() any {
		t.Helper()
		r := f.Do(t, "GET", f.base+"/1?include_diverged_commits_count=true", "reporter", nil)
		require.Equal(t, 200, r.Status, r.String())
		return servertest.Object(t, r)["diverged_commits_count"]
	}
	assert.Equal(t, float64(0), diverged())

	// main moves two commits on.
	repo := f.Repo(t, f.P)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	c1 := servertest.Commit(t, repo, main.Commit.ID, "one.txt", 2)
	servertest.SetBranch(t, repo, "main", servertest.Commit(t, repo, c1, "two.txt", 3))
	assert.Equal(t, float64(2), diverged())

	// The source branch is deleted.
	require.NoError(t, repo.UpdateRef(context.Background(), git.BranchRef("feature"), git.ZeroOID, ""))
	assert.Equal(t, float64(0), diverged())
}

// TestMergeRequestRenderHTML: render_html=true adds title_html (one line, escaped) and
// description_html after closed_at on the single read; without it neither key is sent.
func TestMergeRequestRenderHTML(t *testing.T) {
	f := newMRFixture(t, "private")
	f.create(t, "developer", map[string]any{"source_branch": "feature", "target_branch": "main",
		"title": "Fix <b>", "description": "First & one\n\nSecond"})
	r := f.Do(t, "GET", f.base+"/1?render_html=true", "reporter", nil)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Equal(t, "Fix &lt;b&gt;", got["title_html"])
	assert.Equal(t, `<p data-sourcepos="1:1-1:11" dir="auto">First &amp; one</p><p data-sourcepos="3:1-3:6" dir="auto">Second</p>`,
		got["description_html"])
	// GitLab's order: closed_at, title_html, description_html, target_branch.
	body := r.String()
	assert.Less(t, strings.Index(body, `"closed_at"`), strings.Index(body, `"title_html"`))
	assert.Less(t, strings.Index(body, `"title_html"`), strings.Index(body, `"description_html"`))
	assert.Less(t, strings.Index(body, `"description_html"`), strings.Index(body, `"target_branch"`))

	got = servertest.Object(t, f.Do(t, "GET", f.base+"/1", "reporter", nil))
	assert.NotContains(t, got, "title_html")
	assert.NotContains(t, got, "description_html")
}
