package webhookapi_test

import (
	"regexp"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookTimeRE is the time format of note, issue and snippet payloads.
var hookTimeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$`)

// TestNoteEvents: a comment on an issue delivers GitLab's note payload (the note, its issue)
// to the hooks subscribed to note events; an internal comment reaches the hooks subscribed to
// confidential note events only; a comment on a project snippet carries the snippet with its
// content.
func TestNoteEvents(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	notesRcv, confRcv := newReceiver(t), newReceiver(t)
	p := f.Project(t, "talk", "private")
	pid := strconv.Itoa(p.ID)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+notesRcv.URL+`","push_events":false,"note_events":true}`).Status)
	require.Equal(t, 201, f.Do(t, "POST", "/projects/"+pid+"/hooks", "maintainer", `{"url":"`+confRcv.URL+`","push_events":false,"confidential_note_events":true}`).Status)

	r := f.Do(t, "POST", "/projects/"+pid+"/issues", "developer", `{"title":"Broken","description":"It fails"}`)
	require.Equal(t, 201, r.Status, r.String())
	is := servertest.Object(t, r)
	r = f.Do(t, "POST", "/projects/"+pid+"/issues/1/notes", "reporter", `{"body":"Seen it too"}`)
	require.Equal(t, 201, r.Status, r.String())
	n := servertest.Object(t, r)
	nid := int(n["id"].(float64))

	d := notesRcv.wait(t, 1)[0]
	assert.Equal(t, "Note Hook", d.Header.Get("X-Gitlab-Event"))
	b := d.Body
	web := f.In.URL + "/g/talk"
	rep := f.Users["reporter"]
	attrs := b["object_attributes"].(map[string]any)
	assert.Regexp(t, hookTimeRE, attrs["created_at"])
	assert.Regexp(t, hookTimeRE, attrs["updated_at"])
	assert.Regexp(t, `^[0-9a-f]{40}$`, attrs["discussion_id"])
	assert.Equal(t, map[string]any{
		"attachment": nil, "author_id": float64(rep.ID), "change_position": nil, "commit_id": nil,
		"created_at": attrs["created_at"], "discussion_id": attrs["discussion_id"], "id": float64(nid), "line_code": nil,
		"note": "Seen it too", "noteable_id": is["id"], "noteable_type": "Issue", "original_position": nil,
		"position": nil, "project_id": float64(p.ID), "resolved_at": nil, "resolved_by_id": nil,
		"resolved_by_push": nil, "st_diff": nil, "system": false, "type": nil, "updated_at": attrs["updated_at"],
		"updated_by_id": nil, "description": "Seen it too", "url": web + "/-/issues/1#note_" + strconv.Itoa(nid),
		"action": "create",
	}, attrs)
	issue := b["issue"].(map[string]any)
	assert.Regexp(t, hookTimeRE, issue["created_at"])
	assert.Equal(t, map[string]any{
		"id": is["id"], "iid": float64(1), "title": "Broken", "description": "It fails", "assignee_ids": []any{},
		"assignee_id": nil, "author_id": float64(f.Users["developer"].ID), "project_id": float64(p.ID),
		"milestone_id": nil, "created_at": issue["created_at"], "updated_at": issue["updated_at"], "closed_at": nil,
		"due_date": nil, "state_id": float64(1), "state": "opened", "confidential": false, "discussion_locked": nil,
		"url": web + "/-/issues/1", "labels": []any{}, "time_estimate": float64(0), "total_time_spent": float64(0),
		"time_change": float64(0), "human_total_time_spent": nil, "human_time_estimate": nil, "human_time_change": nil,
		"moved_to_id": nil, "duplicated_to_id": nil, "relative_position": issue["relative_position"],
		"updated_by_id": nil, "last_edited_at": nil, "last_edited_by_id": nil, "weight": nil, "health_status": nil,
		"severity": "unknown",
	}, issue)
	assert.Equal(t, map[string]any{"name": "talk", "url": "git@127.0.0.1:g/talk.git", "description": "", "homepage": web}, b["repository"])
	assert.Equal(t, map[string]any{"id": float64(rep.ID), "name": rep.Name, "username": "reporter",
		"avatar_url": b["user"].(map[string]any)["avatar_url"], "email": "[REDACTED]"}, b["user"])
	for _, k := range []string{"object_attributes", "issue", "repository", "user", "project"} {
		delete(b, k)
	}
	assert.Equal(t, map[string]any{"object_kind": "note", "event_type": "note", "project_id": float64(p.ID)}, b)

	// An internal note is confidential: it reaches the confidential hook, not the other.
	r = f.Do(t, "POST", "/projects/"+pid+"/issues/1/notes", "reporter", `{"body":"Between us","internal":true}`)
	require.Equal(t, 201, r.Status, r.String())
	c := confRcv.wait(t, 1)[0]
	assert.Equal(t, "Confidential Note Hook", c.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "confidential_note", c.Body["event_type"])
	assert.Equal(t, "Between us", c.Body["object_attributes"].(map[string]any)["note"])

	// A snippet comment carries the snippet.
	r = f.Do(t, "POST", "/projects/"+pid+"/snippets", "developer", `{"title":"Snip","file_name":"a.rb","content":"puts 1","visibility":"private"}`)
	require.Equal(t, 201, r.Status, r.String())
	sid := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))
	r = f.Do(t, "POST", "/projects/"+pid+"/snippets/"+sid+"/notes", "developer", `{"body":"Nice"}`)
	require.Equal(t, 201, r.Status, r.String())
	s := notesRcv.wait(t, 2)[1].Body
	assert.Equal(t, "Snippet", s["object_attributes"].(map[string]any)["noteable_type"])
	sn := s["snippet"].(map[string]any)
	assert.Equal(t, map[string]any{
		"id":    float64(servertest.Object(t, f.Do(t, "GET", "/projects/"+pid+"/snippets/"+sid, "developer", nil))["id"].(float64)),
		"title": "Snip", "description": nil, "content": "puts 1", "author_id": float64(f.Users["developer"].ID),
		"project_id": float64(p.ID), "created_at": sn["created_at"], "updated_at": sn["updated_at"], "file_name": "a.rb",
		"type": "ProjectSnippet", "visibility_level": float64(0), "url": web + "/-/snippets/" + sid,
	}, sn)
	f.In.WaitJobs(t)
	assert.Len(t, notesRcv.deliveries(), 2, "the internal note stays out of the note hook")
	assert.Len(t, confRcv.deliveries(), 1)

	// An edit fires the note hook again with action "update": the note as edited, the payload's
	// user its author (GitLab builds it with note.author), whoever edited it.
	r = f.Do(t, "PUT", "/projects/"+pid+"/issues/1/notes/"+strconv.Itoa(nid), "maintainer", `{"body":"Seen it twice"}`)
	require.Equal(t, 200, r.Status, r.String())
	u := notesRcv.wait(t, 3)[2]
	assert.Equal(t, "Note Hook", u.Header.Get("X-Gitlab-Event"))
	assert.Equal(t, "note", u.Body["event_type"])
	ua := u.Body["object_attributes"].(map[string]any)
	assert.Equal(t, "update", ua["action"])
	assert.Equal(t, float64(nid), ua["id"])
	assert.Equal(t, "Seen it twice", ua["note"])
	assert.Equal(t, "Seen it twice", ua["description"])
	assert.Equal(t, float64(f.Users["maintainer"].ID), ua["updated_by_id"])
	assert.Equal(t, float64(rep.ID), u.Body["user"].(map[string]any)["id"])
	assert.Equal(t, float64(1), u.Body["issue"].(map[string]any)["iid"])
	// The same body again changes nothing and fires nothing; an edited internal note reaches
	// the confidential hook.
	require.Equal(t, 200, f.Do(t, "PUT", "/projects/"+pid+"/issues/1/notes/"+strconv.Itoa(nid), "reporter", `{"body":"Seen it twice"}`).Status)
	internalID := strconv.Itoa(int(c.Body["object_attributes"].(map[string]any)["id"].(float64)))
	r = f.Do(t, "PUT", "/projects/"+pid+"/issues/1/notes/"+internalID, "reporter", `{"body":"Still between us"}`)
	require.Equal(t, 200, r.Status, r.String())
	cu := confRcv.wait(t, 2)[1]
	assert.Equal(t, "confidential_note", cu.Body["event_type"])
	assert.Equal(t, "update", cu.Body["object_attributes"].(map[string]any)["action"])
	assert.Equal(t, "Still between us", cu.Body["object_attributes"].(map[string]any)["note"])
	f.In.WaitJobs(t)
	assert.Len(t, notesRcv.deliveries(), 3, "an unchanged body fires nothing")
	assert.Len(t, confRcv.deliveries(), 2)
}
