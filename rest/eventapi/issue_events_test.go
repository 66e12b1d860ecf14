package eventapi_test

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// issueFeed is a fixture: a public group "ev" with a public project "pub" and a private
// project "priv", members of the group at each role, an outsider and an administrator. The
// developer opens issue 1 in pub (then closes and reopens it), confidential issue 2 in pub,
// and issue 1 in priv.
type issueFeed struct {
	in        *servertest.Instance
	group     *ent.Namespace
	pub, priv *ent.Project
	users     map[string]*ent.User
	tokens    map[string]string
}

func newIssueFeed(t *testing.T) *issueFeed {
	t.Helper()
	in := servertest.Start(t)
	f := &issueFeed{in: in, users: map[string]*ent.User{}, tokens: map[string]string{}}
	f.group = in.NewGroup(t, "ev", "public", nil)
	f.pub = in.NewProject(t, f.group, "pub", "public")
	f.priv = in.NewProject(t, f.group, "priv", "private")
	for _, m := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"dev", 30}, {"owner", 50}} {
		u, tok := in.NewUser(t, m.name)
		in.AddGroupMember(t, f.group, u, m.level)
		f.users[m.name], f.tokens[m.name] = u, tok
	}
	f.users["outsider"], f.tokens["outsider"] = in.NewUser(t, "outsider")
	f.users["admin"], f.tokens["admin"] = in.NewUser(t, "theadmin", servertest.Admin)
	f.tokens["anonymous"] = ""

	f.do(t, "POST", fmt.Sprintf("/projects/%d/issues", f.pub.ID), "dev", url.Values{"title": {"Public bug"}}, 201)
	f.do(t, "PUT", fmt.Sprintf("/projects/%d/issues/1", f.pub.ID), "dev", url.Values{"state_event": {"close"}}, 200)
	f.do(t, "PUT", fmt.Sprintf("/projects/%d/issues/1", f.pub.ID), "dev", url.Values{"state_event": {"reopen"}}, 200)
	f.do(t, "POST", fmt.Sprintf("/projects/%d/issues", f.pub.ID), "dev", url.Values{"title": {"Secret"}, "confidential": {"true"}}, 201)
	f.do(t, "POST", fmt.Sprintf("/projects/%d/issues", f.priv.ID), "dev", url.Values{"title": {"Private bug"}}, 201)
	return f
}

func (f *issueFeed) do(t *testing.T, method, path, who string, body any, status int) *servertest.Response {
	t.Helper()
	r := f.in.Do(t, method, path, f.tokens[who], body)
	require.Equal(t, status, r.Status, "%s %s as %s: %s", method, path, who, r.String())
	return r
}

// titles lists "action_name target_title" of the issue events of a feed, sorted.
func (f *issueFeed) titles(t *testing.T, path, who string) []string {
	t.Helper()
	list := servertest.Decode[[]map[string]any](t, f.do(t, "GET", path, who, nil, 200))
	out := []string{}
	for _, e := range list {
		if e["target_type"] == "Issue" {
			out = append(out, fmt.Sprint(e["action_name"], " ", e["target_title"]))
		}
	}
	sort.Strings(out)
	return out
}

var publicIssueEvents = []string{"closed Public bug", "opened Public bug", "opened Public bug"}

func TestIssueEvents_recordedInGitLabsShape(t *testing.T) {
	f := newIssueFeed(t)
	list := servertest.Decode[[]map[string]any](t, f.do(t, "GET", fmt.Sprintf("/projects/%d/events?sort=asc", f.pub.ID), "reporter", nil, 200))
	require.Len(t, list, 4)
	is, err := f.in.DB.Client.Issue.Query().All(t.Context())
	require.NoError(t, err)
	byTitle := map[string]*ent.Issue{}
	for _, i := range is {
		byTitle[i.Title] = i
	}
	dev := f.users["dev"]
	e := list[0]
	assert.Equal(t, map[string]any{
		"id": e["id"], "title": nil, "project_id": float64(f.pub.ID), "action_name": "opened",
		"target_id": float64(byTitle["Public bug"].ID), "target_iid": float64(1), "target_type": "Issue",
		"author_id": float64(dev.ID), "target_title": "Public bug", "created_at": e["created_at"],
		"author": e["author"], "imported": false, "imported_from": "none", "author_username": "dev",
	}, e)
	assert.Equal(t, "dev", e["author"].(map[string]any)["username"])
	var actions []string
	for _, e := range list {
		actions = append(actions, fmt.Sprint(e["action_name"], " ", e["target_iid"]))
	}
	assert.Equal(t, []string{"opened 1", "closed 1", "opened 1", "opened 2"}, actions, "created, closed, reopened (shown as opened)")

	// The filters: action, target_type.
	closed := servertest.Decode[[]map[string]any](t, f.do(t, "GET", fmt.Sprintf("/projects/%d/events?action=closed", f.pub.ID), "reporter", nil, 200))
	require.Len(t, closed, 1)
	assert.Equal(t, "closed", closed[0]["action_name"])
	assert.Len(t, servertest.Decode[[]map[string]any](t, f.do(t, "GET", fmt.Sprintf("/projects/%d/events?action=reopened", f.pub.ID), "reporter", nil, 200)), 1)
	assert.Len(t, servertest.Decode[[]map[string]any](t, f.do(t, "GET", fmt.Sprintf("/projects/%d/events?target_type=issue", f.pub.ID), "reporter", nil, 200)), 4)
	assert.Empty(t, servertest.Decode[[]map[string]any](t, f.do(t, "GET", fmt.Sprintf("/projects/%d/events?target_type=milestone", f.pub.ID), "reporter", nil, 200)))

	// An edit records nothing but keeps the title the events show current; a deleted issue's
	// events are gone.
	f.do(t, "PUT", fmt.Sprintf("/projects/%d/issues/1", f.pub.ID), "dev", url.Values{"title": {"Renamed bug"}}, 200)
	assert.Equal(t, []string{"closed Renamed bug", "opened Renamed bug", "opened Renamed bug", "opened Secret"},
		f.titles(t, fmt.Sprintf("/projects/%d/events", f.pub.ID), "reporter"))
	f.do(t, "DELETE", fmt.Sprintf("/projects/%d/issues/1", f.pub.ID), "owner", nil, 204)
	assert.Equal(t, []string{"opened Secret"}, f.titles(t, fmt.Sprintf("/projects/%d/events", f.pub.ID), "reporter"))
}

// TestIssueEvents_visibility: every feed shows an issue's events only to those who may read the
// issue: the issues feature, a confidential issue for Reporters, its author and assignees.
func TestIssueEvents_visibility(t *testing.T) {
	f := newIssueFeed(t)
	pubFeed := fmt.Sprintf("/projects/%d/events", f.pub.ID)
	devFeed := fmt.Sprintf("/users/%d/events", f.users["dev"].ID)
	withSecret := append(append([]string{}, publicIssueEvents...), "opened Secret")
	sort.Strings(withSecret)
	withPrivate := append(append([]string{}, withSecret...), "opened Private bug")
	sort.Strings(withPrivate)
	publicAndPrivate := append(append([]string{}, publicIssueEvents...), "opened Private bug")
	sort.Strings(publicAndPrivate)

	for _, c := range []struct {
		who             string
		project, ofUser []string
	}{
		{"anonymous", publicIssueEvents, publicIssueEvents},
		{"outsider", publicIssueEvents, publicIssueEvents},
		{"guest", publicIssueEvents, publicAndPrivate},
		{"reporter", withSecret, withPrivate},
		{"dev", withSecret, withPrivate},
		{"admin", withSecret, withPrivate},
	} {
		t.Run(c.who, func(t *testing.T) {
			assert.Equal(t, c.project, f.titles(t, pubFeed, c.who), "GET /projects/:id/events")
			assert.Equal(t, c.ofUser, f.titles(t, devFeed, c.who), "GET /users/:id/events")
		})
	}
	// The author sees its own confidential issue's events in its own feed; a Guest assigned to
	// the issue sees them too.
	assert.Equal(t, withPrivate, f.titles(t, "/events", "dev"))
	assert.Empty(t, f.titles(t, "/events", "guest"), "the Guest's own events: none")
	// scope=all: the events of the caller's projects, under the same rules.
	assert.Equal(t, publicAndPrivate, f.titles(t, "/events?scope=all", "guest"))
	f.do(t, "PUT", fmt.Sprintf("/projects/%d/issues/2", f.pub.ID), "dev",
		url.Values{"assignee_ids": {strconv.Itoa(f.users["guest"].ID)}}, 200)
	assert.Equal(t, withSecret, f.titles(t, pubFeed, "guest"))
	assert.Equal(t, withPrivate, f.titles(t, "/events?scope=all", "guest"))
	assert.Equal(t, publicIssueEvents, f.titles(t, pubFeed, "outsider"))

	// Issues for members only: anonymous callers and outsiders lose the events; disabled:
	// everybody does.
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"issues_access_level": {"private"}}, 200)
	assert.Empty(t, f.titles(t, pubFeed, "anonymous"))
	assert.Empty(t, f.titles(t, devFeed, "outsider"))
	assert.Equal(t, withSecret, f.titles(t, pubFeed, "guest"), "a member still reads them")
	f.do(t, "PUT", fmt.Sprintf("/projects/%d", f.pub.ID), "owner", url.Values{"issues_access_level": {"disabled"}}, 200)
	for _, who := range []string{"guest", "reporter", "dev", "admin"} {
		assert.Empty(t, f.titles(t, pubFeed, who), who)
	}
	assert.Equal(t, []string{"opened Private bug"}, f.titles(t, devFeed, "reporter"))
}
