package noteapi_test

import (
	"net/url"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/service/notes"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSystemNotes: each issue change GitLab writes a system note for writes one, in GitLab's
// words, by the changer; state, label and milestone changes are resource events only.
func TestSystemNotes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "sys", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 40)
	bob, _ := in.NewUser(t, "bob")
	carol, _ := in.NewUser(t, "carol")
	dave, _ := in.NewUser(t, "dave")
	base := newIssue(t, in, p.ID, tok, url.Values{"title": {"Crash"}, "assignee_ids[]": {itoa(bob.ID)}})
	assert.Empty(t, bodies(t, in.Do(t, "GET", base+"/notes", "", nil)), "creation writes no system note")

	for _, c := range []struct {
		form url.Values
		want []string
	}{
		{url.Values{"title": {"Crash at start"}}, []string{"changed title from **Crash** to **Crash{+ at start+}**"}},
		{url.Values{"title": {"Hang at start"}}, []string{"changed title from **{-Crash-} at start** to **{+Hang+} at start**"}},
		{url.Values{"description": {"Steps"}}, []string{"changed the description"}},
		{url.Values{"description": {"Steps"}}, nil},
		{url.Values{"confidential": {"true"}}, []string{"made the issue confidential"}},
		{url.Values{"confidential": {"false"}}, []string{"made the issue visible to everyone"}},
		{url.Values{"discussion_locked": {"true"}}, []string{"locked the discussion in this issue"}},
		{url.Values{"discussion_locked": {"false"}}, []string{"unlocked the discussion in this issue"}},
		{url.Values{"assignee_ids[]": {itoa(bob.ID), itoa(carol.ID), itoa(dave.ID)}}, []string{"assigned to @carol and @dave"}},
		{url.Values{"assignee_ids[]": {itoa(alice.ID)}}, []string{"assigned to @alice and unassigned @bob, @carol and @dave"}},
		{url.Values{"assignee_ids": {""}}, []string{"unassigned @alice"}},
		{url.Values{"due_date": {"2030-01-02"}}, []string{"changed due date to January 2, 2030"}},
		{url.Values{"due_date": {""}}, []string{"removed due date January 2, 2030"}},
		{url.Values{"state_event": {"close"}, "labels": {"bug"}}, nil},
		{url.Values{"title": {"T2"}, "description": {"D2"}}, []string{"changed title from **{-Hang at start-}** to **{+T2+}**", "changed the description"}},
	} {
		before := in.Do(t, "GET", base+"/notes?activity_filter=only_activity&per_page=100", tok, nil)
		n := len(servertest.List(t, before))
		r := in.Do(t, "PUT", base, tok, c.form)
		require.Equal(t, 200, r.Status, r.String())
		all := servertest.List(t, in.Do(t, "GET", base+"/notes?activity_filter=only_activity&sort=asc&per_page=100", tok, nil))
		var got []string
		for _, n := range all[n:] {
			got = append(got, n["body"].(string))
			assert.Equal(t, true, n["system"])
			assert.Nil(t, n["type"])
			assert.Equal(t, "alice", n["author"].(map[string]any)["username"])
		}
		assert.Equal(t, c.want, got, c.form.Encode())
	}
	// System notes are not user notes.
	assert.Equal(t, float64(0), servertest.Object(t, in.Do(t, "GET", base, "", nil))["user_notes_count"])
}

// TestTitleChange: the inline diff marks of the title system note.
func TestTitleChange(t *testing.T) {
	for _, c := range [][3]string{
		{"abc", "abc!", "changed title from **abc** to **abc{+!+}**"},
		{"abc!", "abc", "changed title from **abc{-!-}** to **abc**"},
		{"old", "new", "changed title from **{-old-}** to **{+new+}**"},
		{"aXa", "aYa", "changed title from **a{-X-}a** to **a{+Y+}a**"},
	} {
		assert.Equal(t, c[2], notes.TitleChange(c[0], c[1]))
	}
}

// TestIssueNotes_destroyedWithIssue: deleting an issue deletes its notes.
func TestIssueNotes_destroyedWithIssue(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "gone", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	base := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"Bye"}})
	post(t, in, base+"/notes", servertest.RootToken, 201, url.Values{"body": {"x"}})
	require.Equal(t, 204, in.Do(t, "DELETE", base, servertest.RootToken, nil).Status)
	n, err := in.Services.DB.Client.Note.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestCommentedEvent: a comment records a "commented on" event with the note as its target.
func TestCommentedEvent(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "ev", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	base := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"Bug"}})
	n := post(t, in, base+"/notes", tok, 201, url.Values{"body": {"Me too"}})

	r := in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/events?target_type=note", tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	evs := servertest.List(t, r)
	require.Len(t, evs, 1)
	e := evs[0]
	for k, want := range map[string]any{
		"action_name": "commented on", "target_type": "Note", "target_id": n["id"], "target_iid": n["id"],
		"target_title": nil, "author_id": float64(alice.ID), "project_id": float64(p.ID), "note": map[string]any(n),
	} {
		assert.Equal(t, want, e[k], k)
	}
	// Other events carry no note.
	r = in.Do(t, "GET", "/users/"+itoa(alice.ID)+"/events", tok, nil)
	for _, e := range servertest.List(t, r) {
		if e["target_type"] != "Note" {
			assert.NotContains(t, e, "note")
		}
	}
}

// TestSystemNotes_mentions: an issue description or a comment that references another issue of
// the project writes "mentioned in issue #M" on it, once; confidential issues and internal
// notes mention nothing.
func TestSystemNotes_mentions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "men", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	_, tok := in.NewUser(t, "alice")
	target := newIssue(t, in, p.ID, tok, url.Values{"title": {"Target"}})
	other := newIssue(t, in, p.ID, tok, url.Values{"title": {"Other"}, "description": {"See #1 and #1, not #99 nor a#1 nor &#1;"}})
	mentions := func() []string {
		return bodies(t, in.Do(t, "GET", target+"/notes?activity_filter=only_activity&sort=asc", servertest.RootToken, nil))
	}
	assert.Equal(t, []string{"mentioned in issue #2"}, mentions())

	post(t, in, other+"/notes", tok, 201, url.Values{"body": {"Again #1"}})
	assert.Equal(t, []string{"mentioned in issue #2"}, mentions(), "once per source")
	third := newIssue(t, in, p.ID, tok, url.Values{"title": {"Third"}})
	post(t, in, third+"/notes", tok, 201, url.Values{"body": {"Related to #1"}})
	assert.Equal(t, []string{"mentioned in issue #2", "mentioned in issue #3"}, mentions())
	post(t, in, target+"/notes", tok, 201, url.Values{"body": {"Self #1"}})
	assert.Len(t, mentions(), 2, "an issue does not mention itself")

	secret := newIssue(t, in, p.ID, tok, url.Values{"title": {"Secret"}, "confidential": {"true"}, "description": {"#1"}})
	post(t, in, secret+"/notes", tok, 201, url.Values{"body": {"#1"}})
	post(t, in, third+"/notes", servertest.RootToken, 201, url.Values{"body": {"#1 hidden"}, "internal": {"true"}})
	r := in.Do(t, "PUT", third, tok, url.Values{"description": {"now #1 in the description"}})
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, []string{"mentioned in issue #2", "mentioned in issue #3"}, mentions())
}
