package noteapi_test

import (
	"net/url"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bodies are the bodies of a note list answer, in order.
func bodies(t *testing.T, r *servertest.Response) []string {
	t.Helper()
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, n := range servertest.List(t, r) {
		out = append(out, n["body"].(string))
	}
	return out
}

// TestIssueNotes: list (order, sort, pages, activity_filter), read, create, update, delete.
func TestIssueNotes(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "crud", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	alice, tok := in.NewUser(t, "alice")
	in.AddProjectMember(t, p, alice, 30)
	base := newIssue(t, in, p.ID, tok, url.Values{"title": {"Crash"}})

	var ids []int
	for _, b := range []string{"one", "two", "three"} {
		ids = append(ids, id(post(t, in, base+"/notes", tok, 201, url.Values{"body": {b}})["id"]))
	}
	// A change to the issue writes a system note.
	require.Equal(t, 200, in.Do(t, "PUT", base, tok, url.Values{"title": {"Crash on start"}}).Status)

	sys := "changed title from **Crash** to **Crash{+ on start+}**"
	assert.Equal(t, []string{sys, "three", "two", "one"}, bodies(t, in.Do(t, "GET", base+"/notes", "", nil)))
	assert.Equal(t, []string{"one", "two", "three", sys}, bodies(t, in.Do(t, "GET", base+"/notes?sort=asc", "", nil)))
	assert.Equal(t, []string{"one", "two", "three"}, bodies(t, in.Do(t, "GET", base+"/notes?sort=asc&activity_filter=only_comments", "", nil)))
	assert.Equal(t, []string{sys}, bodies(t, in.Do(t, "GET", base+"/notes?activity_filter=only_activity", "", nil)))

	r := in.Do(t, "GET", base+"/notes?sort=asc&per_page=2&page=2", "", nil)
	assert.Equal(t, []string{"three", sys}, bodies(t, r))
	assert.Equal(t, "4", r.Header.Get("X-Total"))
	assert.Equal(t, "2", r.Header.Get("X-Total-Pages"))

	// Editing "one" makes it the most recently updated; its edit is recorded.
	time.Sleep(5 * time.Millisecond)
	r = in.Do(t, "PUT", base+"/notes/"+itoa(ids[0]), tok, url.Values{"body": {"one, edited"}})
	require.Equal(t, 200, r.Status, r.String())
	edited := servertest.Object(t, r)
	assert.Equal(t, "one, edited", edited["body"])
	assert.NotEqual(t, edited["created_at"], edited["updated_at"])
	assert.Equal(t, []string{"one, edited", sys, "three", "two"},
		bodies(t, in.Do(t, "GET", base+"/notes?order_by=updated_at", "", nil)))
	n, err := in.Services.DB.Client.Note.Get(t.Context(), ids[0])
	require.NoError(t, err)
	require.NotNil(t, n.LastEditedAt)
	assert.Equal(t, alice.ID, *n.UpdatedByID)

	// Delete: 204, then gone; the issue counts the remaining user notes.
	assert.Equal(t, 204, in.Do(t, "DELETE", base+"/notes/"+itoa(ids[1]), tok, nil).Status)
	servertest.RequireError(t, in.Do(t, "GET", base+"/notes/"+itoa(ids[1]), tok, nil), 404, "message", "404 Not found")
	assert.Equal(t, float64(2), servertest.Object(t, in.Do(t, "GET", base, "", nil))["user_notes_count"])

	// Bad input.
	servertest.RequireError(t, in.Do(t, "POST", base+"/notes", tok, url.Values{}), 400, "error", "body is missing")
	servertest.RequireError(t, in.Do(t, "POST", base+"/notes", tok, url.Values{"body": {"  "}}), 400, "message",
		`400 Bad request - Note {:note=>["can't be blank"]}`)
	servertest.RequireError(t, in.Do(t, "PUT", base+"/notes/"+itoa(ids[0]), tok, url.Values{}), 400, "error", "body is missing")
	servertest.RequireError(t, in.Do(t, "GET", base+"/notes?order_by=id", "", nil), 400, "error", "order_by does not have a valid value")
	servertest.RequireError(t, in.Do(t, "GET", base+"/notes?sort=up", "", nil), 400, "error", "sort does not have a valid value")
	servertest.RequireError(t, in.Do(t, "GET", base+"/notes/abc", "", nil), 404, "message", "404 Not found")
	servertest.RequireError(t, in.Do(t, "GET", "/projects/"+itoa(p.ID)+"/issues/99/notes", "", nil), 404, "message", "404 Issue Not Found")
	// A system note cannot be changed or deleted, even by its project's owner.
	r = in.Do(t, "GET", base+"/notes?activity_filter=only_activity", "", nil)
	sysID := id(servertest.List(t, r)[0]["id"])
	assert.Equal(t, 403, in.Do(t, "PUT", base+"/notes/"+itoa(sysID), servertest.RootToken, url.Values{"body": {"x"}}).Status)
	assert.Equal(t, 403, in.Do(t, "DELETE", base+"/notes/"+itoa(sysID), servertest.RootToken, nil).Status)
}

// TestIssueNotes_backDating: created_at is kept for administrators and project or group owners
// only, and sets updated_at too.
func TestIssueNotes_backDating(t *testing.T) {
	in := servertest.Start(t)
	g := in.NewGroup(t, "dates", "public", nil)
	p := in.NewProject(t, g, "app", "public")
	base := newIssue(t, in, p.ID, servertest.RootToken, url.Values{"title": {"Old"}})
	for _, c := range []struct {
		name  string
		level int
		admin bool
		kept  bool
	}{{"dev", 30, false, false}, {"maint", 40, false, false}, {"owner", 50, false, true}, {"boss", 0, true, true}} {
		t.Run(c.name, func(t *testing.T) {
			var opts []servertest.UserOption
			if c.admin {
				opts = append(opts, servertest.Admin)
			}
			u, tok := in.NewUser(t, c.name, opts...)
			if c.level > 0 {
				in.AddGroupMember(t, g, u, c.level)
			}
			for _, path := range []string{"/notes", "/discussions"} {
				out := post(t, in, base+path, tok, 201, url.Values{"body": {"late"}, "created_at": {"2020-01-02T03:04:05Z"}})
				if path == "/discussions" {
					out = out["notes"].([]any)[0].(map[string]any)
				}
				if c.kept {
					assert.Equal(t, "2020-01-02T03:04:05.000Z", out["created_at"], path)
					assert.Equal(t, "2020-01-02T03:04:05.000Z", out["updated_at"], path)
				} else {
					assert.NotEqual(t, "2020-01-02T03:04:05.000Z", out["created_at"], path)
				}
			}
		})
	}
}
