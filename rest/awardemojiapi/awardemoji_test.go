package awardemojiapi_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func decode[T any](t *testing.T, r *servertest.Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

func newIssue(t *testing.T, in *servertest.Instance, projectID int, token string, form url.Values) map[string]any {
	t.Helper()
	r := in.Do(t, "POST", "/projects/"+strconv.Itoa(projectID)+"/issues", token, form)
	require.Equal(t, 201, r.Status, r.String())
	return decode[map[string]any](t, r)
}

// TestIssueAwards: list, read, award and remove emoji on an issue with GitLab's shapes, name
// rules and errors.
func TestIssueAwards(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "aw", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, aliceTok := in.NewUser(t, "alice")
	_, bobTok := in.NewUser(t, "bob")
	is := newIssue(t, in, p.ID, aliceTok, url.Values{"title": {"Crash"}})
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues/1/award_emoji"

	r := in.Do(t, "POST", base, aliceTok, url.Values{"name": {"+1"}})
	require.Equal(t, 201, r.Status, r.String())
	aw := decode[map[string]any](t, r)
	id := int(aw["id"].(float64))
	user := aw["user"].(map[string]any)
	assert.Equal(t, map[string]any{"id": float64(alice.ID), "username": "alice", "name": alice.Name,
		"state": "active", "locked": false, "avatar_url": user["avatar_url"], "web_url": in.URL + "/alice"}, user)
	for k, want := range map[string]any{
		"id": float64(id), "name": "thumbsup", "awardable_id": is["id"], "awardable_type": "Issue", "url": nil,
	} {
		assert.Equal(t, want, aw[k], k)
	}
	assert.Len(t, aw, 8, "no field beyond GitLab's")
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, aw["created_at"])
	assert.Equal(t, aw["created_at"], aw["updated_at"])

	// The same award twice, an unknown name, no name.
	r = in.Do(t, "POST", base, aliceTok, url.Values{"name": {"thumbsup"}})
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Name has already been taken Not Found"}`, string(r.Body))
	r = in.Do(t, "POST", base, aliceTok, url.Values{"name": {"no_such_emoji"}})
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Name is not a valid emoji name Not Found"}`, string(r.Body))
	r = in.Do(t, "POST", base, aliceTok, nil)
	assert.Equal(t, 400, r.Status)
	assert.JSONEq(t, `{"error":"name is missing"}`, string(r.Body))

	// Others award too; the list is oldest first, paged with GitLab's headers.
	for _, name := range []string{"thumbsdown", "8ball", "blowfish"} {
		r = in.Do(t, "POST", base, bobTok, url.Values{"name": {name}})
		require.Equal(t, 201, r.Status, r.String())
	}
	r = in.Do(t, "GET", base+"?per_page=2", "", nil)
	require.Equal(t, 200, r.Status, r.String())
	list := decode[[]map[string]any](t, r)
	require.Len(t, list, 2)
	assert.Equal(t, "thumbsup", list[0]["name"])
	assert.Equal(t, "thumbsdown", list[1]["name"])
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Next-Page"))

	// The issue counts its votes.
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/1", "", nil)
	got := decode[map[string]any](t, r)
	assert.Equal(t, float64(1), got["upvotes"])
	assert.Equal(t, float64(1), got["downvotes"])

	// One award by id; an id of no award of this issue is 404 Not found.
	r = in.Do(t, "GET", base+"/"+strconv.Itoa(id), "", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, aw, decode[map[string]any](t, r))
	other := newIssue(t, in, p.ID, aliceTok, url.Values{"title": {"other"}})
	otherBase := "/projects/" + strconv.Itoa(p.ID) + "/issues/" + strconv.Itoa(int(other["iid"].(float64))) + "/award_emoji"
	r = in.Do(t, "GET", otherBase+"/"+strconv.Itoa(id), aliceTok, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Not found"}`, string(r.Body))
	assert.Equal(t, 404, in.Do(t, "GET", base+"/abc", aliceTok, nil).Status)
	r = in.Do(t, "GET", "/projects/"+strconv.Itoa(p.ID)+"/issues/99/award_emoji", aliceTok, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))

	// Removing: another user's award is 401, as GitLab's API answers; one's own is 204; an
	// administrator removes anyone's; anonymous callers are 401 on a public issue.
	r = in.Do(t, "DELETE", base+"/"+strconv.Itoa(id), bobTok, nil)
	assert.Equal(t, 401, r.Status)
	assert.JSONEq(t, `{"message":"401 Unauthorized"}`, string(r.Body))
	assert.Equal(t, 401, in.Do(t, "DELETE", base+"/"+strconv.Itoa(id), "", nil).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", base+"/"+strconv.Itoa(id), aliceTok, nil).Status)
	assert.Equal(t, 404, in.Do(t, "DELETE", base+"/"+strconv.Itoa(id), aliceTok, nil).Status, "gone")
	bobs := decode[[]map[string]any](t, in.Do(t, "GET", base, "", nil))
	require.Len(t, bobs, 3)
	r = in.Do(t, "DELETE", base+"/"+strconv.Itoa(int(bobs[0]["id"].(float64))), servertest.RootToken, nil)
	assert.Equal(t, 204, r.Status, r.String())
	assert.Len(t, decode[[]any](t, in.Do(t, "GET", base, "", nil)), 2)

	// Anonymous callers cannot award, even on a public issue (404 as GitLab).
	r = in.Do(t, "POST", base, "", url.Values{"name": {"rocket"}})
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Not Found"}`, string(r.Body))

	// A deleted issue takes its awards with it.
	r = in.Do(t, "DELETE", "/projects/"+strconv.Itoa(p.ID)+"/issues/1", servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	n, err := in.DB.Client.AwardEmoji.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 0, n)
}

// TestIssueAwardPermissions: who may read, award and remove awards on a private project's
// issues and on a confidential issue.
func TestIssueAwardPermissions(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "awp", "private", nil)
	p := in.NewProject(t, g, "app", "private")
	guest, guestTok := in.NewUser(t, "guest")
	in.AddGroupMember(t, g, guest, 10)
	reporter, reporterTok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)
	_, strangerTok := in.NewUser(t, "stranger")
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"open"}})
	newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"secret"}, "confidential": {"true"}})
	base := "/projects/" + strconv.Itoa(p.ID) + "/issues/"

	r := in.Do(t, "POST", base+"1/award_emoji", reporterTok, url.Values{"name": {"rocket"}})
	require.Equal(t, 201, r.Status, r.String())
	award := base + "1/award_emoji/" + strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64)))

	for _, c := range []struct {
		name, token            string
		read, award, removeRep int
	}{
		{"anonymous", "", 404, 404, 404},
		{"non-member", strangerTok, 404, 404, 404},
		{"guest", guestTok, 200, 201, 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.read, in.Do(t, "GET", base+"1/award_emoji", c.token, nil).Status, "list")
			assert.Equal(t, c.read, in.Do(t, "GET", award, c.token, nil).Status, "read")
			r := in.Do(t, "POST", base+"1/award_emoji", c.token, url.Values{"name": {"tada"}})
			assert.Equal(t, c.award, r.Status, r.String())
			assert.Equal(t, c.removeRep, in.Do(t, "DELETE", award, c.token, nil).Status, "remove another's")
		})
	}

	// The confidential issue is hidden from a Guest: no reading, no awarding (404).
	r = in.Do(t, "GET", base+"2/award_emoji", guestTok, nil)
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Issue Not Found"}`, string(r.Body))
	assert.Equal(t, 404, in.Do(t, "POST", base+"2/award_emoji", guestTok, url.Values{"name": {"tada"}}).Status)
	assert.Equal(t, 201, in.Do(t, "POST", base+"2/award_emoji", reporterTok, url.Values{"name": {"tada"}}).Status)

	// An archived project takes no new awards, but its awards stay readable.
	r = in.Do(t, "POST", "/projects/"+strconv.Itoa(p.ID)+"/archive", servertest.RootToken, nil)
	require.Equal(t, 201, r.Status, r.String())
	r = in.Do(t, "POST", base+"1/award_emoji", reporterTok, url.Values{"name": {"smile"}})
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Not Found"}`, string(r.Body))
	assert.Equal(t, 200, in.Do(t, "GET", base+"1/award_emoji", reporterTok, nil).Status)
}

// TestAwardsThroughClientGo: GitLab's Go client awards, lists, reads and deletes issue awards.
func TestAwardsThroughClientGo(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "awc", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	gl := in.Client(t, servertest.RootToken)
	_, _, err := gl.Issues.CreateIssue(p.ID, &gitlab.CreateIssueOptions{Title: gitlab.Ptr("one")})
	require.NoError(t, err)
	a, _, err := gl.AwardEmoji.CreateIssueAwardEmoji(p.ID, 1, &gitlab.CreateAwardEmojiOptions{Name: "heart"})
	require.NoError(t, err)
	assert.Equal(t, "heart", a.Name)
	assert.Equal(t, "root", a.User.Username)
	assert.Equal(t, "Issue", a.AwardableType)
	list, _, err := gl.AwardEmoji.ListIssueAwardEmoji(p.ID, 1, nil)
	require.NoError(t, err)
	require.Len(t, list, 1)
	one, _, err := gl.AwardEmoji.GetIssueAwardEmoji(p.ID, 1, a.ID)
	require.NoError(t, err)
	assert.Equal(t, a.ID, one.ID)
	_, err = gl.AwardEmoji.DeleteIssueAwardEmoji(p.ID, 1, a.ID)
	require.NoError(t, err)
	list, _, err = gl.AwardEmoji.ListIssueAwardEmoji(p.ID, 1, nil)
	require.NoError(t, err)
	assert.Empty(t, list)
}

// TestNoteAwards: awards on an issue's notes: award, list, read, remove; internal notes hidden
// from those who do not read them; system notes take none.
func TestNoteAwards(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "awn", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	_, aliceTok := in.NewUser(t, "alice")
	reporter, reporterTok := in.NewUser(t, "reporter")
	in.AddGroupMember(t, g, reporter, 20)
	newIssue(t, in, p.ID, aliceTok, url.Values{"title": {"Crash"}})
	issue := "/projects/" + strconv.Itoa(p.ID) + "/issues/1"
	r := in.Do(t, "POST", issue+"/notes", aliceTok, url.Values{"body": {"me too"}})
	require.Equal(t, 201, r.Status, r.String())
	noteID := strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64)))
	base := issue + "/notes/" + noteID + "/award_emoji"

	r = in.Do(t, "POST", base, reporterTok, url.Values{"name": {"+1"}})
	require.Equal(t, 201, r.Status, r.String())
	aw := decode[map[string]any](t, r)
	assert.Equal(t, "Note", aw["awardable_type"])
	assert.Equal(t, noteID, strconv.Itoa(int(aw["awardable_id"].(float64))))
	assert.Equal(t, "thumbsup", aw["name"])
	awardPath := base + "/" + strconv.Itoa(int(aw["id"].(float64)))
	list := decode[[]map[string]any](t, in.Do(t, "GET", base, "", nil))
	require.Len(t, list, 1)
	assert.Equal(t, aw, list[0])
	assert.Equal(t, 200, in.Do(t, "GET", awardPath, "", nil).Status)
	r = in.Do(t, "POST", base, reporterTok, url.Values{"name": {"thumbsup"}})
	assert.JSONEq(t, `{"message":"404 Award Emoji Name has already been taken Not Found"}`, string(r.Body))
	// A note award is not the issue's: the issue's awards and votes stay empty.
	assert.Empty(t, decode[[]any](t, in.Do(t, "GET", issue+"/award_emoji", "", nil)))
	assert.Equal(t, float64(0), decode[map[string]any](t, in.Do(t, "GET", issue, "", nil))["upvotes"])
	assert.Equal(t, 401, in.Do(t, "DELETE", awardPath, aliceTok, nil).Status)
	assert.Equal(t, 204, in.Do(t, "DELETE", awardPath, reporterTok, nil).Status)
	r = in.Do(t, "GET", issue+"/notes/999999/award_emoji", aliceTok, nil)
	assert.Equal(t, 404, r.Status)

	// An internal note is hidden from those who do not read internal notes.
	r = in.Do(t, "POST", issue+"/notes", reporterTok, url.Values{"body": {"internal"}, "internal": {"true"}})
	require.Equal(t, 201, r.Status, r.String())
	internal := issue + "/notes/" + strconv.Itoa(int(decode[map[string]any](t, r)["id"].(float64))) + "/award_emoji"
	assert.Equal(t, 404, in.Do(t, "GET", internal, aliceTok, nil).Status)
	assert.Equal(t, 404, in.Do(t, "POST", internal, aliceTok, url.Values{"name": {"eyes"}}).Status)
	assert.Equal(t, 201, in.Do(t, "POST", internal, reporterTok, url.Values{"name": {"eyes"}}).Status)

	// A system note (the title change) takes no awards.
	r = in.Do(t, "PUT", issue, aliceTok, url.Values{"title": {"Crash on start"}})
	require.Equal(t, 200, r.Status, r.String())
	var system string
	for _, n := range decode[[]map[string]any](t, in.Do(t, "GET", issue+"/notes", reporterTok, nil)) {
		if n["system"] == true {
			system = strconv.Itoa(int(n["id"].(float64)))
		}
	}
	require.NotEmpty(t, system)
	r = in.Do(t, "POST", issue+"/notes/"+system+"/award_emoji", reporterTok, url.Values{"name": {"eyes"}})
	assert.Equal(t, 404, r.Status)
	assert.JSONEq(t, `{"message":"404 Award Emoji Awardable cannot be awarded emoji Not Found"}`, string(r.Body))

	// Deleting the issue removes its notes' awards with them.
	r = in.Do(t, "DELETE", issue, servertest.RootToken, nil)
	require.Equal(t, 204, r.Status, r.String())
	n, err := in.DB.Client.AwardEmoji.Query().Count(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 0, n)
}
