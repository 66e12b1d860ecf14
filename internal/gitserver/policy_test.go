package gitserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGit_archived: an archived project refuses pushes, for every role, with GitLab's message,
// and still serves clones; unarchived, it takes pushes again.
func TestGit_archived(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	p := f.project(t, "old", "private", true)
	g := newGitClient(t, in)
	tok := f.tokens
	archive := func(action string) {
		t.Helper()
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/%s", p.ID, action), tok["owner"], nil)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
	}
	archive("archive")
	const msg = "You can't push code to an archived project."
	for _, user := range []string{"developer", "maintainer", "owner", "reporter"} {
		resp, body := infoRefs(t, in, "g/old.git", "git-receive-pack", user, tok[user])
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, user)
		assert.Equal(t, msg, body, user)
	}
	dir, out, err := g.clone("g/old", "developer", tok["developer"])
	require.NoError(t, err, out)
	tip := branchTip(t, in, p, "main")
	g.must(dir, "checkout", "-q", "-b", "topic")
	g.commit(dir, "a.txt", "a\n", "Add a")
	out, err = g.run(dir, "push", "origin", "topic")
	require.Error(t, err)
	assert.Contains(t, out, msg)
	assert.Empty(t, branchTip(t, in, p, "topic"))
	assert.Equal(t, tip, branchTip(t, in, p, "main"))

	archive("unarchive")
	g.must(dir, "push", "-q", "origin", "topic")
	assert.NotEmpty(t, branchTip(t, in, p, "topic"))
}

// TestGit_privateRepository: a public project whose repository is private to members serves
// clones to its members (Guests included) and refuses everyone else, as the policy decides
// for the API.
func TestGit_privateRepository(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	p := f.project(t, "code", "public", true)
	r := in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), f.tokens["maintainer"],
		`{"repository_access_level":"private","merge_requests_access_level":"private","builds_access_level":"private"}`)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	g := newGitClient(t, in)
	for _, user := range []string{"guest", "reporter"} {
		_, out, err := g.clone("g/code", user, f.tokens[user])
		require.NoError(t, err, "%s: %s", user, out)
	}
	resp, body := infoRefs(t, in, "g/code.git", "git-upload-pack", "outsider", f.tokens["outsider"])
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, "You are not allowed to download code from this project.", body)
	resp, _ = infoRefs(t, in, "g/code.git", "git-upload-pack", "", "")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "anonymous callers are asked for credentials")
}
