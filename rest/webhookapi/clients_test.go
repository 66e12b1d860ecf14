package webhookapi_test

import (
	"context"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookLists_paginate: GitLab paginates the system, group and project hook lists
// (paginate(...) in each list endpoint), so clients that follow X-Next-Page or Link (gitbeaker's
// all(), python-gitlab's get_all) find every hook; the headers are the offset ones.
func TestHookLists_paginate(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	p := f.Project(t, "paged", "private")
	for _, base := range []string{"/hooks", "/groups/" + strconv.Itoa(f.Group.ID) + "/hooks", "/projects/" + strconv.Itoa(p.ID) + "/hooks"} {
		var ids []float64
		for i := range 3 {
			r := f.Do(t, "POST", base, "root", `{"url":"http://127.0.0.1:9/h`+strconv.Itoa(i)+`"}`)
			require.Equal(t, 201, r.Status, r.String())
			ids = append(ids, servertest.Object(t, r)["id"].(float64))
		}

		r := f.Do(t, "GET", base+"?per_page=2", "root", nil)
		require.Equal(t, 200, r.Status, r.String())
		first := servertest.List(t, r)
		require.Len(t, first, 2, base)
		assert.Equal(t, ids[0], first[0]["id"], base)
		assert.Equal(t, ids[1], first[1]["id"], base)
		for k, v := range map[string]string{"X-Page": "1", "X-Per-Page": "2", "X-Next-Page": "2", "X-Prev-Page": "",
			"X-Total": "3", "X-Total-Pages": "2"} {
			assert.Equal(t, v, r.Header.Get(k), base+" "+k)
		}
		self := f.In.URL + "/api/v4" + base
		assert.Equal(t, `<`+self+`?page=2&per_page=2>; rel="next", <`+self+`?page=1&per_page=2>; rel="first", <`+self+`?page=2&per_page=2>; rel="last"`,
			r.Header.Get("Link"), base)

		r = f.Do(t, "GET", base+"?per_page=2&page=2", "root", nil)
		require.Equal(t, 200, r.Status, r.String())
		second := servertest.List(t, r)
		require.Len(t, second, 1, base)
		assert.Equal(t, ids[2], second[0]["id"], base)
		assert.Equal(t, "", r.Header.Get("X-Next-Page"), base)
		assert.Equal(t, "1", r.Header.Get("X-Prev-Page"), base)

		r = f.Do(t, "GET", base+"?per_page=0", "root", nil)
		assert.Equal(t, 400, r.Status, r.String())
	}
}

// TestHookUpdate_nullClears: python-gitlab's save() sends an attribute set to None as JSON null;
// GitLab stores nil, so the branch filter and the template read null again and the name and
// description read empty. Absent attributes stay as they were.
func TestHookUpdate_nullClears(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	p := f.Project(t, "nulls", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/hooks"
	r := f.Do(t, "POST", base, "root", `{"url":"http://127.0.0.1:9/n","name":"n","description":"d","token":"t",
		"push_events_branch_filter":"main","custom_webhook_template":"{\"a\":1}"}`)
	require.Equal(t, 201, r.Status, r.String())
	h := servertest.Object(t, r)
	assert.Equal(t, `{"a":1}`, h["custom_webhook_template"])
	path := base + "/" + strconv.Itoa(int(h["id"].(float64)))

	r = f.Do(t, "PUT", path, "root", `{"url":"http://127.0.0.1:9/n","push_events_branch_filter":null,"custom_webhook_template":null}`)
	require.Equal(t, 200, r.Status, r.String())
	got := servertest.Object(t, r)
	assert.Nil(t, got["push_events_branch_filter"])
	assert.Nil(t, got["custom_webhook_template"])
	assert.Equal(t, "n", got["name"], "absent attributes are kept")
	assert.Equal(t, "d", got["description"])

	r = f.Do(t, "PUT", path, "root", `{"url":"http://127.0.0.1:9/n","name":null,"description":null}`)
	require.Equal(t, 200, r.Status, r.String())
	got = servertest.Object(t, r)
	assert.Equal(t, "", got["name"])
	assert.Equal(t, "", got["description"])
	assert.Equal(t, got, servertest.Object(t, f.Do(t, "GET", path, "root", nil)))
}

// TestHookTest_documentedTriggers: the test endpoint takes every trigger GitLab documents for
// project and group hooks. merge_requests_events sends the newest merge request as if opened
// (422 "Ensure the project has merge requests." without one); the triggers whose data Anvil
// never has answer GitLab's 422 for a project without them, not a 400.
func TestHookTest_documentedTriggers(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv := newReceiver(t)
	p := f.ProjectWithReadme(t, "tested", "private")
	pid := strconv.Itoa(p.ID)
	r := f.Do(t, "POST", "/projects/"+pid+"/hooks", "root", `{"url":"`+rcv.URL+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	test := "/projects/" + pid + "/hooks/" + strconv.Itoa(int(servertest.Object(t, r)["id"].(float64))) + "/test/"

	servertest.RequireError(t, f.Do(t, "POST", test+"merge_requests_events", "root", nil), 422, "message", "Ensure the project has merge requests.")
	for trigger, msg := range map[string]string{"job_events": "Ensure the project has CI jobs.",
		"pipeline_events": "Ensure the project has CI pipelines."} {
		servertest.RequireError(t, f.Do(t, "POST", test+trigger, "root", nil), 422, "message", msg)
	}

	repo := f.Repo(t, p)
	main, err := repo.Branch(context.Background(), "main")
	require.NoError(t, err)
	servertest.SetBranch(t, repo, "feature", servertest.Commit(t, repo, main.Commit.ID, "feature.txt", 1))
	r = f.Do(t, "POST", "/projects/"+pid+"/merge_requests", "root", `{"source_branch":"feature","target_branch":"main","title":"Sample"}`)
	require.Equal(t, 201, r.Status, r.String())
	r = f.Do(t, "POST", test+"merge_requests_events", "root", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.JSONEq(t, `{"message":"201 Created"}`, string(r.Body))
	var sample *delivery
	for _, d := range rcv.wait(t, 1) {
		if d.Header.Get("X-Gitlab-Event") == "Merge Request Hook" {
			sample = &d
		}
	}
	require.NotNil(t, sample, "the test delivered a merge request hook")
	assert.Equal(t, "merge_request", sample.Body["object_kind"])
	attrs := sample.Body["object_attributes"].(map[string]any)
	assert.Equal(t, "Sample", attrs["title"])
	assert.Equal(t, "open", attrs["action"])
	assert.Equal(t, map[string]any{}, sample.Body["changes"])
}
