package gitserver_test

import (
	"fmt"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGit_MovedProject: after a rename and a transfer, git keeps working against the project's
// old URLs (GitLab follows redirect routes for git), until a new project takes the path.
func TestGit_MovedProject(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	p := f.project(t, "app", "private", true)
	g := newGitClient(t, in)
	tok := f.tokens["developer"]

	r := in.Do(t, "PUT", fmt.Sprintf("/projects/%d", p.ID), f.tokens["owner"], `{"path":"renamed"}`)
	require.Equal(t, 200, r.Status, r.String())
	dest := in.NewGroup(t, "dest", "private", nil)
	in.AddGroupMember(t, dest, f.users["owner"], 50)
	in.AddGroupMember(t, dest, f.users["developer"], 30)
	r = in.Do(t, "PUT", fmt.Sprintf("/projects/%d/transfer", p.ID), f.tokens["owner"], `{"namespace":"dest"}`)
	require.Equal(t, 200, r.Status, r.String())

	// Both old paths clone the project, and a push through one lands in it (main is protected:
	// the Owner pushes).
	dir, out, err := g.clone("g/app", "owner", f.tokens["owner"])
	require.NoError(t, err, out)
	assert.FileExists(t, dir+"/README.md")
	sha := g.commit(dir, "new.txt", "hello\n", "add new")
	g.must(dir, "push", "-q", "origin", "HEAD:main")
	r = in.Do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/main", p.ID), tok, nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Contains(t, string(r.Body), sha)
	_, out, err = g.clone("g/renamed", "developer", tok)
	require.NoError(t, err, out)
	_, out, err = g.clone("dest/renamed", "developer", tok)
	require.NoError(t, err, out)

	// Someone without access still cannot tell the old path from a missing one.
	_, out, err = g.clone("g/app", "outsider", f.tokens["outsider"])
	require.Error(t, err)
	assert.True(t, strings.Contains(out, "not found") || strings.Contains(out, "could not be found"), out)

	// A new project at the old path takes it: its (empty) repository is what clones now.
	fresh := f.project(t, "app", "private", false)
	dir, out, err = g.clone("g/app", "developer", tok)
	require.NoError(t, err, out)
	assert.NoFileExists(t, dir+"/README.md")
	assert.NotEqual(t, p.ID, fresh.ID)
}
