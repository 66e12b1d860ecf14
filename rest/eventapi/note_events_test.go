package eventapi_test

import (
	"fmt"
	"net/url"
	"sort"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// comments lists "action_name note-body" of a feed's comment events, sorted.
func (f *issueFeed) comments(t *testing.T, path, who string) []string {
	t.Helper()
	list := servertest.Decode[[]map[string]any](t, f.do(t, "GET", path, who, nil, 200))
	ns, err := f.in.DB.Client.Note.Query().All(t.Context())
	require.NoError(t, err)
	bodies := map[float64]string{}
	for _, n := range ns {
		bodies[float64(n.ID)] = n.Body
	}
	out := []string{}
	for _, e := range list {
		if e["target_type"] == "Note" {
			id, _ := e["target_id"].(float64)
			out = append(out, fmt.Sprint(e["action_name"], " ", bodies[id]))
		}
	}
	sort.Strings(out)
	return out
}

// TestNoteEvents_visibility: a comment's event is shown to those who may read the issue it is
// on, and an internal comment's to Reporters only.
func TestNoteEvents_visibility(t *testing.T) {
	f := newIssueFeed(t)
	notes := func(iid int) string { return fmt.Sprintf("/projects/%d/issues/%d/notes", f.pub.ID, iid) }
	f.do(t, "POST", notes(1), "dev", url.Values{"body": {"public"}}, 201)
	f.do(t, "POST", notes(1), "dev", url.Values{"body": {"internal"}, "internal": {"true"}}, 201)
	f.do(t, "POST", notes(2), "dev", url.Values{"body": {"on secret"}}, 201)
	feed := fmt.Sprintf("/projects/%d/events", f.pub.ID)
	all := []string{"commented on internal", "commented on on secret", "commented on public"}
	for _, c := range []struct {
		who  string
		want []string
	}{
		{"anonymous", []string{"commented on public"}},
		{"outsider", []string{"commented on public"}},
		{"guest", []string{"commented on public"}},
		{"reporter", all},
		{"admin", all},
	} {
		assert.Equal(t, c.want, f.comments(t, feed, c.who), c.who)
		assert.Equal(t, c.want, f.comments(t, fmt.Sprintf("/users/%d/events", f.users["dev"].ID), c.who), c.who)
	}
	assert.Equal(t, all, f.comments(t, "/events", "dev"))

	// Issues for members only, then off: the comments go with the issues.
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"issues_access_level": {"private"}}, 200)
	assert.Empty(t, f.comments(t, feed, "anonymous"))
	assert.Equal(t, []string{"commented on public"}, f.comments(t, feed, "guest"))
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"issues_access_level": {"disabled"}}, 200)
	assert.Empty(t, f.comments(t, feed, "reporter"))
	assert.Empty(t, f.comments(t, feed, "admin"))
}
