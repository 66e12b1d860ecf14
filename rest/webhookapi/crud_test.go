package webhookapi_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var projectHookKeys = []string{"alert_status", "branch_filter_strategy", "confidential_issues_events",
	"confidential_note_events", "created_at", "custom_headers", "custom_webhook_template", "deployment_events",
	"description", "disabled_until", "enable_ssl_verification", "id", "issues_events", "job_events",
	"merge_requests_events", "name", "note_events", "pipeline_events", "project_id", "push_events",
	"push_events_branch_filter", "releases_events", "repository_update_events", "resource_access_token_events",
	"tag_push_events", "url", "url_variables", "wiki_page_events"}

// TestProjectHooks_crud: a Maintainer creates, reads, lists, updates and deletes a project hook;
// the token, header values and URL variable values never appear; Developers are refused (403)
// and outsiders of a private project see nothing (404).
func TestProjectHooks_crud(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	p := f.Project(t, "hooked", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/hooks"

	r := f.Do(t, "POST", base, "maintainer", `{"url":"http://127.0.0.1:9/h/{secret}","name":"n","description":"d",
		"token":"s3cret","issues_events":true,"push_events_branch_filter":"main","branch_filter_strategy":"wildcard",
		"custom_headers":[{"key":"X-Custom","value":"hidden-value"}],"url_variables":[{"key":"secret","value":"hidden-var"}],
		"subgroup_events":true}`)
	require.Equal(t, 201, r.Status, r.String())
	h := servertest.Object(t, r)
	assert.Equal(t, projectHookKeys, servertest.Keys(h))
	assert.NotContains(t, r.String(), "s3cret")
	assert.NotContains(t, r.String(), "hidden-value")
	assert.NotContains(t, r.String(), "hidden-var")
	assert.Equal(t, "http://127.0.0.1:9/h/{secret}", h["url"])
	assert.Equal(t, true, h["push_events"], "push events are on by default")
	assert.Equal(t, true, h["issues_events"])
	assert.Equal(t, false, h["tag_push_events"])
	assert.Equal(t, "executable", h["alert_status"])
	assert.Nil(t, h["disabled_until"])
	assert.Equal(t, []any{map[string]any{"key": "X-Custom"}}, h["custom_headers"])
	assert.Equal(t, []any{map[string]any{"key": "secret"}}, h["url_variables"])
	assert.Equal(t, "main", h["push_events_branch_filter"])
	assert.Equal(t, float64(p.ID), h["project_id"])
	id := strconv.Itoa(int(h["id"].(float64)))

	r = f.Do(t, "GET", base+"/"+id, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, h, servertest.Object(t, r))
	r = f.Do(t, "GET", base, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	require.Len(t, servertest.List(t, r), 1)

	r = f.Do(t, "PUT", base+"/"+id, "maintainer", `{"url":"http://127.0.0.1:9/other","push_events":false,"branch_filter_strategy":"regex","push_events_branch_filter":"^rel-"}`)
	require.Equal(t, 200, r.Status, r.String())
	u := servertest.Object(t, r)
	assert.Equal(t, "http://127.0.0.1:9/other", u["url"])
	assert.Equal(t, false, u["push_events"])
	assert.Equal(t, true, u["issues_events"], "unchanged")
	assert.Equal(t, "regex", u["branch_filter_strategy"])

	r = f.Do(t, "PUT", base+"/"+id, "maintainer", `{"url":"http://127.0.0.1:9/other","branch_filter_strategy":"sometimes"}`)
	servertest.RequireError(t, r, 400, "error", "branch_filter_strategy does not have a valid value")
	r = f.Do(t, "PUT", base+"/"+id, "maintainer", `{"url":"http://127.0.0.1:9/other","push_events_branch_filter":"(["}`)
	require.Equal(t, 400, r.Status, r.String())
	r = f.Do(t, "PUT", base+"/"+id, "maintainer", `{"push_events":true}`)
	servertest.RequireError(t, r, 400, "error", "url is missing")

	// Custom headers and URL variables one by one.
	require.Equal(t, 204, f.Do(t, "PUT", base+"/"+id+"/custom_headers/X-Two", "maintainer", `{"value":"v2"}`).Status)
	require.Equal(t, 204, f.Do(t, "DELETE", base+"/"+id+"/custom_headers/X-Custom", "maintainer", nil).Status)
	require.Equal(t, 404, f.Do(t, "DELETE", base+"/"+id+"/custom_headers/X-Custom", "maintainer", nil).Status)
	require.Equal(t, 204, f.Do(t, "PUT", base+"/"+id+"/url_variables/v2", "maintainer", url.Values{"value": {"x"}}).Status)
	require.Equal(t, 400, f.Do(t, "PUT", base+"/"+id+"/url_variables/v3", "maintainer", `{}`).Status)
	r = f.Do(t, "GET", base+"/"+id, "maintainer", nil)
	g := servertest.Object(t, r)
	assert.Equal(t, []any{map[string]any{"key": "X-Two"}}, g["custom_headers"])
	assert.Equal(t, []any{map[string]any{"key": "secret"}, map[string]any{"key": "v2"}}, g["url_variables"])
	stored, err := f.In.Services.DB.Client.WebHook.Get(context.Background(), int(h["id"].(float64)))
	require.NoError(t, err)
	assert.Equal(t, "s3cret", stored.Token, "the token is kept, only never shown")

	// Permissions.
	assert.Equal(t, 403, f.Do(t, "GET", base, "developer", nil).Status)
	assert.Equal(t, 403, f.Do(t, "POST", base, "developer", `{"url":"http://127.0.0.1:9/"}`).Status)
	assert.Equal(t, 404, f.Do(t, "GET", base, "outsider", nil).Status)
	assert.Equal(t, 401, f.Do(t, "GET", base, "", nil).Status)
	assert.Equal(t, 404, f.Do(t, "GET", base+"/999999", "maintainer", nil).Status)

	r = f.Do(t, "POST", base, "maintainer", `{"name":"no url"}`)
	servertest.RequireError(t, r, 400, "error", "url is missing")

	require.Equal(t, 204, f.Do(t, "DELETE", base+"/"+id, "maintainer", nil).Status)
	assert.Equal(t, 404, f.Do(t, "GET", base+"/"+id, "maintainer", nil).Status)
}

// TestGroupAndSystemHooks_crud: group hooks belong to group Owners (a Maintainer is refused),
// system hooks to administrators; each has its own shape.
func TestGroupAndSystemHooks_crud(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	base := "/groups/" + strconv.Itoa(f.Group.ID) + "/hooks"
	assert.Equal(t, 403, f.Do(t, "POST", base, "maintainer", `{"url":"http://127.0.0.1:9/"}`).Status)
	r := f.Do(t, "POST", base, "root", `{"url":"http://127.0.0.1:9/g","member_events":true,"subgroup_events":true,"emoji_events":true}`)
	require.Equal(t, 201, r.Status, r.String())
	g := servertest.Object(t, r)
	assert.Equal(t, float64(f.Group.ID), g["group_id"])
	for _, k := range []string{"member_events", "subgroup_events", "emoji_events"} {
		assert.Equal(t, true, g[k], k)
	}
	assert.NotContains(t, g, "project_id")
	id := strconv.Itoa(int(g["id"].(float64)))
	r = f.Do(t, "PUT", base+"/"+id, "root", `{"url":"http://127.0.0.1:9/g2","member_events":false}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, false, servertest.Object(t, r)["member_events"])
	require.Len(t, servertest.List(t, f.Do(t, "GET", base, "root", nil)), 1)
	require.Equal(t, 204, f.Do(t, "DELETE", base+"/"+id, "root", nil).Status)

	// System hooks.
	assert.Equal(t, 403, f.Do(t, "GET", "/hooks", "maintainer", nil).Status)
	assert.Equal(t, 401, f.Do(t, "GET", "/hooks", "", nil).Status)
	r = f.Do(t, "POST", "/hooks", "root", `{"url":"http://127.0.0.1:9/s","token":"tok","tag_push_events":true}`)
	require.Equal(t, 201, r.Status, r.String())
	s := servertest.Object(t, r)
	assert.Equal(t, []string{"alert_status", "branch_filter_strategy", "created_at", "custom_headers",
		"custom_webhook_template", "description", "disabled_until", "enable_ssl_verification", "id",
		"merge_requests_events", "name", "push_events", "push_events_branch_filter", "repository_update_events",
		"tag_push_events", "url", "url_variables"}, servertest.Keys(s))
	assert.Equal(t, false, s["push_events"], "system hooks default to no push events")
	assert.Equal(t, true, s["repository_update_events"])
	assert.Equal(t, true, s["tag_push_events"])
	sid := strconv.Itoa(int(s["id"].(float64)))
	r = f.Do(t, "PUT", "/hooks/"+sid, "root", `{"url":"http://127.0.0.1:9/s2","merge_requests_events":true}`)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, true, servertest.Object(t, r)["merge_requests_events"])
	require.Len(t, servertest.List(t, f.Do(t, "GET", "/hooks", "root", nil)), 1)
	require.Equal(t, 204, f.Do(t, "DELETE", "/hooks/"+sid, "root", nil).Status)
	assert.Equal(t, 404, f.Do(t, "GET", "/hooks/"+sid, "root", nil).Status)
}

// TestCreate_refusesLocalURLs: without allowance, a hook URL on each local range, or a host
// name resolving to loopback, answers 422 {"error":"Invalid url given"}; the allow-local
// settings (web hooks and system hooks each their own) let them in.
func TestCreate_refusesLocalURLs(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "ssrf", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/hooks"
	ctx := context.Background()
	// System hooks reach the local network by default (GitLab's default); turned off here.
	require.NoError(t, f.In.Services.Settings.Set(ctx, "allow_local_requests_from_system_hooks", false))
	for _, u := range []string{"http://127.0.0.1:8080/", "http://localhost/", "http://10.0.0.1/", "http://172.16.5.4/",
		"http://192.168.0.1/", "http://169.254.169.254/", "http://100.64.1.1/", "http://[fd00::1]/", "http://[::1]/",
		"http://0.0.0.0/", "ftp://example.com/", "not a url"} {
		r := f.Do(t, "POST", base, "maintainer", `{"url":"`+u+`"}`)
		servertest.RequireError(t, r, 422, "error", "Invalid url given")
		r = f.Do(t, "POST", "/hooks", "root", `{"url":"`+u+`"}`)
		servertest.RequireError(t, r, 422, "error", "Invalid url given")
	}
	require.NoError(t, f.In.Services.Settings.Set(ctx, "allow_local_requests_from_web_hooks_and_services", true))
	assert.Equal(t, 201, f.Do(t, "POST", base, "maintainer", `{"url":"http://localhost:9/"}`).Status)
	servertest.RequireError(t, f.Do(t, "POST", "/hooks", "root", `{"url":"http://localhost:9/"}`), 422, "error", "Invalid url given")
	require.NoError(t, f.In.Services.Settings.Set(ctx, "allow_local_requests_from_system_hooks", true))
	assert.Equal(t, 201, f.Do(t, "POST", "/hooks", "root", `{"url":"http://localhost:9/"}`).Status)
}

// TestSystemHooks_localRequestsAllowedByDefault: allow_local_requests_from_system_hooks is
// true by default as GitLab's (web hooks stay off the local network): an administrator's
// system hook may name a loopback address with no setting changed, a project hook may not.
func TestSystemHooks_localRequestsAllowedByDefault(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "local", "private")
	r := f.Do(t, "GET", "/application/settings", "root", nil)
	require.Equal(t, 200, r.Status, r.String())
	s := servertest.Object(t, r)
	assert.Equal(t, true, s["allow_local_requests_from_system_hooks"])
	assert.Equal(t, false, s["allow_local_requests_from_web_hooks_and_services"])
	assert.Equal(t, 201, f.Do(t, "POST", "/hooks", "root", `{"url":"http://127.0.0.1:9/"}`).Status)
	servertest.RequireError(t, f.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/hooks", "maintainer", `{"url":"http://127.0.0.1:9/"}`),
		422, "error", "Invalid url given")
}
