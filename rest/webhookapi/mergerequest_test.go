package webhookapi_test

import (
	"context"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/service/notes"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeRequestEvents: opening a merge request delivers GitLab's merge request payload
// (action open, the source and target projects, the last commit, assignees and reviewers) to
// the project hooks and the system hooks subscribed to merge request events; a comment on it
// delivers a note payload carrying the merge request.
func TestMergeRequestEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv, sys, notesRcv := newReceiver(t), newReceiver(t), newReceiver(t)
	p := f.ProjectWithReadme(t, "app", "private")
	pid := strconv.Itoa(p.ID)
	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	head := servertest.Commit(t, repo, main.Commit.ID, "feature.txt", 1)
	servertest.SetBranch(t, repo, "feature", head)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+rcv.URL+`","push_events":false,"merge_requests_events":true}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+notesRcv.URL+`","push_events":false,"note_events":true}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/hooks", "root", `{"url":"`+sys.URL+`","repository_update_events":false,"merge_requests_events":true}`).Status)

	rev := f.Users["reporter"]
	r := f.Do(t, "POST", "/projects/"+pid+"/merge_requests", "developer", `{"source_branch":"feature","target_branch":"main",
		"title":"Add feature","description":"Adds it","assignee_ids":[`+strconv.Itoa(f.Users["developer"].ID)+`],"reviewer_ids":[`+strconv.Itoa(rev.ID)+`]}`)
	require.Equal(t, 201, r.Status, r.String())
	mr := servertest.Object(t, r)
	d := rcv.wait(t, 1)[0]
	assert.Equal(t, "Merge Request Hook", d.Header.Get("X-Gitlab-Event"))
	b := d.Body
	web := f.In.URL + "/g/app"
	dev := f.Users["developer"]
	attrs := b["object_attributes"].(map[string]any)
	assert.Regexp(t, hookTimeRE, attrs["created_at"])
	project := b["project"].(map[string]any)
	assert.Equal(t, web, project["web_url"])
	lc := attrs["last_commit"].(map[string]any)
	assert.Equal(t, map[string]any{"id": string(head), "message": lc["message"], "title": lc["title"],
		"timestamp": lc["timestamp"], "url": web + "/-/commit/" + string(head),
		"author": map[string]any{"name": servertest.Author.Name, "email": servertest.Author.Email}}, lc)
	assert.Equal(t, map[string]any{
		"id": mr["id"], "iid": float64(1), "target_branch": "main", "source_branch": "feature",
		"source_project_id": float64(p.ID), "author_id": float64(dev.ID), "assignee_ids": []any{float64(dev.ID)},
		"assignee_id": float64(dev.ID), "reviewer_ids": []any{float64(rev.ID)}, "title": "Add feature",
		"created_at": attrs["created_at"], "updated_at": attrs["updated_at"], "last_edited_at": nil,
		"last_edited_by_id": nil, "milestone_id": nil, "state_id": float64(1), "state": "opened",
		"blocking_discussions_resolved": true, "work_in_progress": false, "draft": false, "first_contribution": true,
		"merge_status": attrs["merge_status"], "target_project_id": float64(p.ID), "description": "Adds it",
		"prepared_at": attrs["prepared_at"], "head_pipeline_id": nil, "merge_commit_sha": nil, "merge_error": nil,
		"merge_params":  map[string]any{"force_remove_source_branch": mr["force_remove_source_branch"]},
		"merge_user_id": nil, "merge_when_pipeline_succeeds": false, "updated_by_id": nil, "time_estimate": float64(0),
		"total_time_spent": float64(0), "time_change": float64(0), "human_total_time_spent": nil,
		"human_time_change": nil, "human_time_estimate": nil, "url": web + "/-/merge_requests/1",
		"source": project, "target": project, "last_commit": attrs["last_commit"], "labels": []any{},
		"detailed_merge_status": attrs["detailed_merge_status"], "action": "open",
	}, attrs)
	// The payload is built when the merge request opens, before or after its first mergeability
	// check: the detailed status follows the stored merge status either way.
	assert.Equal(t, map[any]any{"unchecked": "unchecked", "can_be_merged": "mergeable"}[attrs["merge_status"]],
		attrs["detailed_merge_status"], "merge_status %v", attrs["merge_status"])
	assert.Equal(t, []any{map[string]any{"id": float64(dev.ID), "name": dev.Name, "username": "developer",
		"avatar_url": b["assignees"].([]any)[0].(map[string]any)["avatar_url"], "email": "[REDACTED]"}}, b["assignees"])
	assert.Equal(t, "reporter", b["reviewers"].([]any)[0].(map[string]any)["username"])
	for _, k := range []string{"object_attributes", "project", "user", "assignees", "reviewers"} {
		delete(b, k)
	}
	assert.Equal(t, map[string]any{"object_kind": "merge_request", "event_type": "merge_request", "labels": []any{},
		"changes": map[string]any{}, "repository": map[string]any{"name": "app", "url": "git@127.0.0.1:g/app.git",
			"description": "", "homepage": web}}, b)
	s := sys.wait(t, 1)
	assert.Equal(t, "System Hook", s[len(s)-1].Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "merge_request", s[len(s)-1].Body["object_kind"])

	// The notes routes of merge requests come with their wave: the comment goes through the
	// notes service.
	created, _, err := f.In.Services.Notes.Create(context.Background(), authz.System(rev),
		notes.Ref{Type: notes.TypeMergeRequest, Parent: pid, ID: "1"}, notes.CreateInput{Body: "Looks good"}, false)
	require.NoError(t, err)
	n := notesRcv.wait(t, 1)[0].Body
	na := n["object_attributes"].(map[string]any)
	assert.Equal(t, "MergeRequest", na["noteable_type"])
	assert.Equal(t, web+"/-/merge_requests/1#note_"+strconv.Itoa(created.ID), na["url"])
	assert.Equal(t, "Add feature", n["merge_request"].(map[string]any)["title"])
	assert.NotContains(t, n["merge_request"], "action")

	// Without assignees and reviewers, the payload has neither key (GitLab's Issuable builder).
	f.In.WaitJobs(t)
	seen := len(rcv.deliveries())
	r = f.Do(t, "PUT", "/projects/"+pid+"/merge_requests/1", "developer", `{"assignee_ids":[],"reviewer_ids":[]}`)
	require.Equal(t, 200, r.Status, r.String())
	u := rcv.wait(t, seen+1)[seen].Body
	assert.Equal(t, "update", u["object_attributes"].(map[string]any)["action"])
	assert.NotContains(t, u, "assignees")
	assert.NotContains(t, u, "reviewers")
}
