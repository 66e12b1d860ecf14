package webhookapi_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/webhooks"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAccessTokenExpiryEvents: the daily job tells the hooks subscribed to resource access
// token events of a project or group access token expiring in seven days; a token expiring
// later is not mentioned.
func TestAccessTokenExpiryEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	prj, grp := newReceiver(t), newReceiver(t)
	p := f.Project(t, "tokened", "private")
	pid, gid := strconv.Itoa(p.ID), strconv.Itoa(f.Group.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "root", `{"url":"`+prj.URL+`","push_events":false,"resource_access_token_events":true}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+grp.URL+`","push_events":false,"resource_access_token_events":true}`).Status)
	in7 := time.Now().UTC().AddDate(0, 0, 7).Format("2006-01-02")
	r := f.Do(t, "POST", "/projects/"+pid+"/access_tokens", "root", `{"name":"deploy","scopes":["api"],"expires_at":"`+in7+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	tok := servertest.Object(t, r)
	r = f.Do(t, "POST", "/projects/"+pid+"/access_tokens", "root", `{"name":"later","scopes":["api"],"expires_at":"`+time.Now().UTC().AddDate(0, 0, 20).Format("2006-01-02")+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	r = f.Do(t, "POST", "/groups/"+gid+"/access_tokens", "root", `{"name":"grouptok","scopes":["api"],"expires_at":"`+in7+`"}`)
	require.Equal(t, 201, r.Status, r.String())
	gtok := servertest.Object(t, r)

	require.NoError(t, f.In.Services.Webhooks.RunAccessTokenExpiry(context.Background(), webhooks.AccessTokenExpiryJob{}))
	d := prj.wait(t, 1)[0]
	assert.Equal(t, "Resource Access Token Hook", d.Header.Get("X-Gitlab-Event"))
	attrs := d.Body["object_attributes"].(map[string]any)
	assert.Regexp(t, hookTimeRE, attrs["created_at"])
	assert.Equal(t, map[string]any{"user_id": tok["user_id"], "created_at": attrs["created_at"], "id": tok["id"],
		"name": "deploy", "expires_at": in7}, attrs)
	assert.Equal(t, "g/tokened", d.Body["project"].(map[string]any)["path_with_namespace"])
	delete(d.Body, "object_attributes")
	delete(d.Body, "project")
	assert.Equal(t, map[string]any{"object_kind": "access_token", "event_name": "expiring_access_token"}, d.Body)

	// The daily job queued at start may also run now, under load, and repeat the notices (by
	// date, at least once): the tokens named count, not the deliveries.
	f.In.WaitJobs(t)
	names := map[string]bool{}
	for _, g := range grp.deliveries() {
		names[g.Body["object_attributes"].(map[string]any)["name"].(string)] = true
		if g.Body["group"] != nil {
			assert.Equal(t, map[string]any{"group_name": "g", "group_path": "g", "group_id": float64(f.Group.ID), "full_path": "g"}, g.Body["group"])
			assert.Equal(t, gtok["id"], g.Body["object_attributes"].(map[string]any)["id"])
		}
	}
	assert.Equal(t, map[string]bool{"deploy": true, "grouptok": true}, names, "group hooks hear of their projects' tokens too")
	for _, d := range prj.deliveries()[1:] { // the first, checked above, lost its keys
		assert.Equal(t, "deploy", d.Body["object_attributes"].(map[string]any)["name"], "the token expiring later is not mentioned")
	}
}
