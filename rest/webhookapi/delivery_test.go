package webhookapi_test

import (
	"context"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/version"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestPush_deliversPayloadAndHeaders: a commit through the API delivers GitLab's push payload
// with every header to a project hook, the secret token and custom header included; the
// delivery is logged with the token and header value masked. A tag push reaches a hook
// subscribed to tag pushes only, and a branch filter keeps other branches out.
func TestPush_deliversPayloadAndHeaders(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv := newReceiver(t)
	p := f.ProjectWithReadme(t, "pushed", "private")
	pid := strconv.Itoa(p.ID)
	r := f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+rcv.URL+`/push","token":"s3cret",
		"custom_headers":[{"key":"X-Extra","value":"extra-value"}],"push_events_branch_filter":"main"}`)
	require.Equal(t, 201, r.Status, r.String())
	hookID := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
	rcvTags := newReceiver(t)
	r = f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+rcvTags.URL+`/tags","push_events":false,"tag_push_events":true}`)
	require.Equal(t, 201, r.Status, r.String())
	rcvSys := newReceiver(t)
	r = f.Do(t, "POST", "/hooks", "root", `{"url":"`+rcvSys.URL+`","push_events":true,"repository_update_events":false}`)
	require.Equal(t, 201, r.Status, r.String())

	before := servertest.Object(t, f.Do(t, "GET", "/projects/"+pid+"/repository/branches/main", "maintainer", nil))["commit"].(map[string]any)["id"].(string)
	r = f.Do(t, "POST", "/projects/"+pid+"/repository/commits", "maintainer", `{"branch":"main","commit_message":"Add a file\n\nWith a body.",
		"actions":[{"action":"create","file_path":"docs/new.md","content":"hello"},{"action":"update","file_path":"README.md","content":"changed"}]}`)
	require.Equal(t, 201, r.Status, r.String())
	c := servertest.Object(t, r)
	after := c["id"].(string)
	// A push to another branch passes no filter of the first hook.
	r = f.Do(t, "POST", "/projects/"+pid+"/repository/branches", "developer", url.Values{"branch": {"other"}, "ref": {"main"}})
	require.Equal(t, 201, r.Status, r.String())

	got := rcv.wait(t, 1)
	f.In.WaitJobs(t)
	require.Len(t, rcv.deliveries(), 1, "the branch filter keeps other branches out")
	d := got[0]
	h := d.Header
	assert.Equal(t, "application/json", h.Get("Content-Type"))
	assert.Equal(t, "GitLab/"+version.GitLab, h.Get("User-Agent"))
	assert.Equal(t, "Push Hook", h.Get("X-Gitlab-Event"))
	assert.Equal(t, "Push Hook", h.Get("X-Service-Event"))
	assert.Equal(t, "s3cret", h.Get("X-Gitlab-Token"))
	assert.Equal(t, "s3cret", h.Get("X-Service-Token"))
	assert.Equal(t, "extra-value", h.Get("X-Extra"))
	assert.Equal(t, f.In.URL, h.Get("X-Gitlab-Instance"))
	assert.Regexp(t, uuidRE, h.Get("Idempotency-Key"))
	assert.Regexp(t, uuidRE, h.Get("X-Gitlab-Webhook-UUID"))
	assert.Regexp(t, uuidRE, h.Get("X-Gitlab-Event-UUID"))

	b := d.Body
	web := f.In.URL + "/g/pushed"
	project := b["project"].(map[string]any)
	assert.Equal(t, map[string]any{
		"id": float64(p.ID), "name": "pushed", "description": "", "web_url": web, "avatar_url": nil,
		"git_ssh_url": "git@127.0.0.1:g/pushed.git", "git_http_url": web + ".git", "namespace": "g",
		"visibility_level": float64(0), "path_with_namespace": "g/pushed", "default_branch": "main",
		"ci_config_path": nil, "homepage": web, "url": "git@127.0.0.1:g/pushed.git",
		"ssh_url": "git@127.0.0.1:g/pushed.git", "http_url": web + ".git",
	}, project)
	dev := f.Users["maintainer"]
	commits := b["commits"].([]any)
	require.Len(t, commits, 1)
	cm := commits[0].(map[string]any)
	assert.Equal(t, map[string]any{
		"id": after, "message": "Add a file\n\nWith a body.", "title": "Add a file",
		"timestamp": cm["timestamp"], "url": web + "/-/commit/" + after,
		"author": map[string]any{"name": dev.Name, "email": dev.Email},
		"added":  []any{"docs/new.md"}, "modified": []any{"README.md"}, "removed": []any{},
	}, cm)
	_, err := time.Parse(time.RFC3339, cm["timestamp"].(string))
	require.NoError(t, err)
	delete(b, "project")
	delete(b, "commits")
	assert.Equal(t, map[string]any{
		"object_kind": "push", "event_name": "push", "before": before, "after": after, "ref": "refs/heads/main",
		"ref_protected": true, "checkout_sha": after, "message": nil, "user_id": float64(dev.ID), "user_name": dev.Name,
		"user_username": "maintainer", "user_email": "[REDACTED]", "user_avatar": b["user_avatar"],
		"project_id": float64(p.ID), "total_commits_count": float64(1), "push_options": map[string]any{},
		"repository": map[string]any{"name": "pushed", "url": "git@127.0.0.1:g/pushed.git", "description": "",
			"homepage": web, "git_http_url": web + ".git", "git_ssh_url": "git@127.0.0.1:g/pushed.git",
			"visibility_level": float64(0)},
	}, b)

	// A system hook gets the push as a System Hook without its commits (GitLab's system push
	// data), the count kept.
	var sysPush map[string]any
	for _, sd := range rcvSys.wait(t, 1) {
		if sd.Body["ref"] == "refs/heads/main" {
			assert.Equal(t, "System Hook", sd.Header.Get("X-Gitlab-Event"))
			sysPush = sd.Body
		}
	}
	require.NotNil(t, sysPush)
	assert.Equal(t, []any{}, sysPush["commits"])
	assert.Equal(t, float64(1), sysPush["total_commits_count"])
	assert.Equal(t, after, sysPush["after"])

	// The log shows the delivery with its secrets masked.
	r = f.Do(t, "GET", "/projects/"+pid+"/hooks/"+hookID+"/events", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	events := servertest.List(t, r)
	require.Len(t, events, 1)
	ev := events[0]
	assert.Equal(t, []string{"execution_duration", "id", "request_data", "request_headers", "response_body",
		"response_headers", "response_status", "trigger", "url"}, servertest.Keys(ev))
	assert.Equal(t, "push_hooks", ev["trigger"])
	assert.Equal(t, "200", ev["response_status"])
	assert.Equal(t, `{"ok":true}`, ev["response_body"])
	assert.Equal(t, rcv.URL+"/push", ev["url"])
	rh := ev["request_headers"].(map[string]any)
	assert.Equal(t, "[REDACTED]", rh["X-Gitlab-Token"])
	assert.Equal(t, "[REDACTED]", rh["X-Extra"])
	assert.Equal(t, "Push Hook", rh["X-Gitlab-Event"])
	assert.Equal(t, h.Get("Idempotency-Key"), rh["Idempotency-Key"])
	assert.Equal(t, "yes", ev["response_headers"].(map[string]any)["X-Receiver"])
	assert.Equal(t, "push", ev["request_data"].(map[string]any)["object_kind"])
	assert.NotContains(t, r.String(), "s3cret")

	// Tag push.
	r = f.Do(t, "POST", "/projects/"+pid+"/repository/tags", "maintainer", url.Values{"tag_name": {"v1.0"}, "ref": {"main"}, "message": {"Release 1.0"}})
	require.Equal(t, 201, r.Status, r.String())
	tg := rcvTags.wait(t, 1)[0]
	assert.Equal(t, "Tag Push Hook", tg.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "tag_push", tg.Body["object_kind"])
	assert.Equal(t, "refs/tags/v1.0", tg.Body["ref"])
	assert.Equal(t, false, tg.Body["ref_protected"])
	assert.Equal(t, after, tg.Body["checkout_sha"])
	assert.Equal(t, "Release 1.0", tg.Body["message"])
	assert.Equal(t, []any{}, tg.Body["commits"])
	f.In.WaitJobs(t)
	assert.Len(t, rcvTags.deliveries(), 1, "the branch pushes did not reach the tag hook")
	assert.Len(t, rcv.deliveries(), 1, "the tag push did not reach the push hook")
}

// TestIssueAndSystemEvents: an issue opened reaches the project's issue hook; a project
// created reaches the system hooks (project_create); POST /hooks/:id answers the mock data and
// delivers it.
func TestIssueAndSystemEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv, sys := newReceiver(t), newReceiver(t)
	p := f.Project(t, "issued", "private")
	pid := strconv.Itoa(p.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+rcv.URL+`","push_events":false,"issues_events":true}`).Status)
	r := f.Do(t, "POST", "/hooks", "root", `{"url":"`+sys.URL+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	sid := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))

	r = f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", `{"title":"Broken"}`)
	require.Equal(t, 201, r.Status, r.String())
	d := rcv.wait(t, 1)[0]
	assert.Equal(t, "Issue Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "issue", d.Body["object_kind"])
	assert.Equal(t, "issue", d.Body["event_type"])
	attrs := d.Body["object_attributes"].(map[string]any)
	assert.Equal(t, "Broken", attrs["title"])
	assert.Equal(t, "open", attrs["action"])
	assert.Equal(t, "opened", attrs["state"])
	assert.Equal(t, f.In.URL+"/g/issued/-/issues/1", attrs["url"])
	assert.Equal(t, "developer", d.Body["user"].(map[string]any)["username"])
	assert.NotContains(t, d.Body, "assignees", "assignees are there when there are some")

	// A confidential issue's event_type is confidential_issue.
	conf := newReceiver(t)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+conf.URL+`","push_events":false,"confidential_issues_events":true}`).Status)
	r = f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", `{"title":"Secret","confidential":true}`)
	require.Equal(t, 201, r.Status, r.String())
	c := conf.wait(t, 1)[0]
	assert.Equal(t, "Confidential Issue Hook", c.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "issue", c.Body["object_kind"])
	assert.Equal(t, "confidential_issue", c.Body["event_type"])

	np := f.Project(t, "fresh", "internal")
	s := sys.wait(t, 1)[0]
	assert.Equal(t, "System Hook", s.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "project_create", s.Body["event_name"])
	assert.Equal(t, float64(np.ID), s.Body["project_id"])
	assert.Equal(t, "g/fresh", s.Body["path_with_namespace"])
	assert.Equal(t, "internal", s.Body["project_visibility"])

	r = f.Do(t, "POST", "/hooks/"+sid, "root", nil)
	require.Equal(t, 201, r.Status, r.String())
	assert.Equal(t, map[string]any{"event_name": "project_create", "name": "Ruby", "path": "ruby",
		"project_id": float64(1), "owner_name": "Someone", "owner_email": "example@gitlabhq.com"}, servertest.Object(t, r))
	assert.Equal(t, "Ruby", sys.wait(t, 2)[1].Body["name"])

	_, err := f.In.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
}

// TestSubgroupEvents: a subgroup created under g reaches g's hooks subscribed to subgroup
// events (and not those that are not), with its parent named.
func TestSubgroupEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	on, off := newReceiver(t), newReceiver(t)
	gid := strconv.Itoa(f.Group.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+on.URL+`","subgroup_events":true,"push_events":false}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+off.URL+`"}`).Status)
	r := f.Do(t, "POST", "/groups", "root", `{"name":"Sub","path":"sub","parent_id":`+gid+`}`)
	require.Equal(t, 201, r.Status, r.String())
	sub := servertest.Object(t, r)
	d := on.wait(t, 1)[0]
	assert.Equal(t, "Subgroup Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, map[string]any{"created_at": d.Body["created_at"], "updated_at": d.Body["updated_at"],
		"event_name": "subgroup_create", "name": "Sub", "path": "sub", "full_path": "g/sub", "group_id": sub["id"],
		"parent_group_id": float64(f.Group.ID), "parent_name": "g", "parent_path": "g", "parent_full_path": "g"}, d.Body)
	f.In.WaitJobs(t)
	assert.Empty(t, off.deliveries())
}

// TestMemberEvents: adding, changing and removing a group member reaches the group's hooks
// subscribed to member events and the system hooks; a project member the system hooks.
func TestMemberEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	grp, sys := newReceiver(t), newReceiver(t)
	gid := strconv.Itoa(f.Group.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+grp.URL+`","member_events":true,"push_events":false}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/hooks", "root", `{"url":"`+sys.URL+`"}`).Status)
	u, _ := f.In.NewUser(t, "newcomer")
	uid := strconv.Itoa(u.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/members", "root", url.Values{"user_id": {uid}, "access_level": {"30"}}).Status)
	d := grp.wait(t, 1)[0]
	assert.Equal(t, "Member Hook", d.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, map[string]any{"created_at": d.Body["created_at"], "updated_at": d.Body["updated_at"],
		"event_name": "user_add_to_group", "group_access": "Developer", "group_id": float64(f.Group.ID),
		"group_name": "g", "group_path": "g", "user_email": "[REDACTED]", "user_name": u.Name,
		"user_username": "newcomer", "user_id": float64(u.ID), "expires_at": nil, "group_plan": nil}, d.Body)
	require.Equal(t, 200, f.Do(t, "PUT", "/groups/"+gid+"/members/"+uid, "root", url.Values{"access_level": {"40"}}).Status)
	d = grp.wait(t, 2)[1]
	assert.Equal(t, "user_update_for_group", d.Body["event_name"])
	assert.Equal(t, "Maintainer", d.Body["group_access"])
	require.Equal(t, 204, f.Do(t, "DELETE", "/groups/"+gid+"/members/"+uid, "root", nil).Status)
	assert.Equal(t, "user_remove_from_group", grp.wait(t, 3)[2].Body["event_name"])

	p := f.Project(t, "team", "private")
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/members", "root", url.Values{"user_id": {uid}, "access_level": {"20"}}).Status)
	f.In.WaitJobs(t)
	var names []string
	for _, d := range sys.deliveries() {
		names = append(names, d.Body["event_name"].(string))
	}
	assert.Contains(t, names, "user_add_to_group")
	assert.Contains(t, names, "user_update_for_group")
	assert.Contains(t, names, "user_remove_from_group")
	assert.Contains(t, names, "user_add_to_team")
	assert.Len(t, grp.deliveries(), 3, "project members do not reach group member hooks")
	// System hooks receive the group hooks' payload (GitLab's one GroupMemberBuilder).
	for _, d := range sys.deliveries() {
		if d.Body["event_name"] == "user_add_to_group" {
			assert.Equal(t, grp.deliveries()[0].Body, d.Body)
		}
		if d.Body["event_name"] == "user_add_to_team" && d.Body["user_id"] == float64(u.ID) {
			assert.Equal(t, map[string]any{"created_at": d.Body["created_at"], "updated_at": d.Body["updated_at"],
				"event_name": "user_add_to_team", "access_level": "Reporter", "project_id": float64(p.ID),
				"project_name": "team", "project_path": "team", "project_path_with_namespace": "g/team",
				"project_visibility": "private", "user_email": "[REDACTED]", "user_name": u.Name,
				"user_username": "newcomer", "user_id": float64(u.ID)}, d.Body)
		}
	}
}
