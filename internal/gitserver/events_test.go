package gitserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pushes over HTTP record activity events as API writes do: one per ref, or one bulk event for
// more than push_event_activities_limit (3) refs of one type moved one way.
func TestGit_PushRecordsEvents(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	p := f.project(t, "code", "private", true)
	g := newGitClient(t, in)
	dir, out, err := g.clone("g/code", "developer", f.tokens["developer"])
	require.NoError(t, err, out)
	feed := func() []map[string]any {
		t.Helper()
		r := in.Do(t, "GET", fmt.Sprintf("/projects/%d/events?action=pushed", p.ID), f.tokens["developer"], nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		return servertest.List(t, r)
	}

	g.must(dir, "checkout", "-q", "-b", "one")
	sha := g.commit(dir, "a.txt", "a\n", "Add a\n\nbody")
	g.must(dir, "branch", "two")
	g.must(dir, "branch", "three")
	g.must(dir, "branch", "four")
	g.must(dir, "tag", "t1")
	g.must(dir, "tag", "t2")
	g.must(dir, "push", "-q", "origin", "one", "two", "three", "four", "t1", "t2")

	list := feed()
	require.Len(t, list, 4, "one bulk branch event and two tag events, after the README's")
	assert.Equal(t, "root", list[3]["author_username"]) // the project's first commit
	// Newest first: the tags, then the bulk event for four new branches.
	bulk := list[2]
	assert.Equal(t, "pushed new", bulk["action_name"])
	assert.Equal(t, "developer", bulk["author_username"])
	assert.Equal(t, map[string]any{"commit_count": float64(0), "action": "created", "ref_type": "branch",
		"commit_from": nil, "commit_to": nil, "ref": nil, "commit_title": nil, "ref_count": float64(4)}, bulk["push_data"])
	var tags []string
	for _, e := range list[:2] {
		pd := e["push_data"].(map[string]any)
		assert.Equal(t, "pushed new", e["action_name"])
		assert.Equal(t, "tag", pd["ref_type"])
		assert.Equal(t, sha, pd["commit_to"])
		tags = append(tags, pd["ref"].(string))
	}
	assert.ElementsMatch(t, []string{"t1", "t2"}, tags)

	sha2 := g.commit(dir, "b.txt", "b\n", "Add b")
	g.must(dir, "push", "-q", "origin", "one", ":two")
	list = feed()
	require.Len(t, list, 6)
	byRef := map[string]map[string]any{}
	for _, e := range list[:2] {
		byRef[e["push_data"].(map[string]any)["ref"].(string)] = e
	}
	assert.Equal(t, "pushed to", byRef["one"]["action_name"])
	assert.Equal(t, map[string]any{"commit_count": float64(1), "action": "pushed", "ref_type": "branch",
		"commit_from": sha, "commit_to": sha2, "ref": "one", "commit_title": "Add b", "ref_count": nil}, byRef["one"]["push_data"])
	assert.Equal(t, "deleted", byRef["two"]["action_name"])
	assert.Nil(t, byRef["two"]["push_data"].(map[string]any)["commit_to"])
	assert.True(t, strings.HasPrefix(list[0]["created_at"].(string), "20"))
}
