package webhookapi_test

import (
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmojiEvents: a reaction on an issue reaches the group hooks subscribed to emoji events
// (award, then revoke when it is taken back); a reaction on a comment carries the note and its
// issue, its awarded_on_url the note's anchor. Hooks without the flag get nothing.
func TestEmojiEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	on, off := newReceiver(t), newReceiver(t)
	gid := strconv.Itoa(f.Group.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+on.URL+`","emoji_events":true,"push_events":false}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/groups/"+gid+"/hooks", "root", `{"url":"`+off.URL+`","issues_events":true,"push_events":false}`).Status)
	p := f.Project(t, "react", "private")
	pid := strconv.Itoa(p.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", `{"title":"Nice"}`).Status)
	issueDone := off.wait(t, 1)

	r := f.Do(t, "POST", "/projects/"+pid+"/issues/1/award_emoji", "reporter", `{"name":"thumbsup"}`)
	require.Equal(t, 201, r.Status, r.String())
	aw := servertest.Object(t, r)
	d := on.wait(t, 1)[0]
	assert.Equal(t, "Emoji Hook", d.Header.Get("X-Gitlab-Event"))
	b := d.Body
	web := f.In.URL + "/g/react"
	rep := f.Users["reporter"]
	attrs := b["object_attributes"].(map[string]any)
	assert.Regexp(t, hookTimeRE, attrs["created_at"])
	assert.Equal(t, map[string]any{"user_id": float64(rep.ID), "created_at": attrs["created_at"], "id": aw["id"],
		"name": "thumbsup", "awardable_type": "Issue", "awardable_id": aw["awardable_id"], "updated_at": attrs["updated_at"],
		"action": "award", "awarded_on_url": web + "/-/issues/1"}, attrs)
	assert.Equal(t, "Nice", b["issue"].(map[string]any)["title"])
	assert.Equal(t, web, b["project"].(map[string]any)["web_url"])
	assert.Equal(t, "reporter", b["user"].(map[string]any)["username"])
	for _, k := range []string{"object_attributes", "issue", "user", "project"} {
		delete(b, k)
	}
	assert.Equal(t, map[string]any{"object_kind": "emoji", "event_type": "award", "project_id": float64(p.ID)}, b)

	awID := strconv.Itoa(int(aw["id"].(float64)))
	require.Equal(t, 204, f.Do(t, "DELETE", "/projects/"+pid+"/issues/1/award_emoji/"+awID, "reporter", nil).Status)
	d = on.wait(t, 2)[1]
	assert.Equal(t, "revoke", d.Body["event_type"])
	assert.Equal(t, "revoke", d.Body["object_attributes"].(map[string]any)["action"])

	// A reaction on a comment.
	r = f.Do(t, "POST", "/projects/"+pid+"/issues/1/notes", "developer", `{"body":"Agreed"}`)
	require.Equal(t, 201, r.Status, r.String())
	nid := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/issues/1/notes/"+nid+"/award_emoji", "reporter", `{"name":"tada"}`).Status)
	d = on.wait(t, 3)[2]
	attrs = d.Body["object_attributes"].(map[string]any)
	assert.Equal(t, "Note", attrs["awardable_type"])
	assert.Equal(t, web+"/-/issues/1#note_"+nid, attrs["awarded_on_url"])
	n := d.Body["note"].(map[string]any)
	assert.Equal(t, "Agreed", n["note"])
	assert.Equal(t, web+"/-/issues/1#note_"+nid, n["url"])
	assert.Equal(t, "Nice", d.Body["issue"].(map[string]any)["title"])

	f.In.WaitJobs(t)
	assert.Len(t, off.deliveries(), len(issueDone), "a hook without emoji events gets no reactions")
}
