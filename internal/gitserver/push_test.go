package gitserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/pushevent"
	"anvil/internal/git"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// branchTip returns a branch's commit on the server, "" when it does not exist.
func branchTip(t *testing.T, in *servertest.Instance, p *ent.Project, branch string) string {
	t.Helper()
	repo, err := in.Services.Repos.Repository(p)
	require.NoError(t, err)
	b, err := repo.Branch(context.Background(), branch)
	if err != nil {
		return ""
	}
	return string(b.Commit.ID)
}

// lastPush returns the newest push record of a project.
func lastPush(t *testing.T, in *servertest.Instance, p *ent.Project) *ent.PushEvent {
	t.Helper()
	ev, err := in.DB.Client.PushEvent.Query().Where(pushevent.ProjectID(p.ID)).
		Order(ent.Desc(pushevent.FieldID)).First(context.Background())
	require.NoError(t, err)
	return ev
}

// pushCount counts a project's push records.
func pushCount(t *testing.T, in *servertest.Instance, p *ent.Project) int {
	t.Helper()
	n, err := in.DB.Client.PushEvent.Query().Where(pushevent.ProjectID(p.ID)).Count(context.Background())
	require.NoError(t, err)
	return n
}

func TestGit_Push(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	code := f.project(t, "code", "private", true)
	g := newGitClient(t, in)
	tok := f.tokens
	clone := func(user string) string {
		dir, out, err := g.clone("g/code", user, tok[user])
		require.NoError(t, err, out)
		return dir
	}
	mainTip := branchTip(t, in, code, "main")
	require.NotEmpty(t, mainTip)

	t.Run("developer pushes a new branch, recorded", func(t *testing.T) {
		dir := clone("developer")
		g.must(dir, "checkout", "-q", "-b", "feature")
		sha := g.commit(dir, "a.txt", "a\n", "Add a\n\nWith a body.")
		before := time.Now().Add(-time.Second)
		g.must(dir, "push", "-q", "origin", "feature")
		assert.Equal(t, sha, branchTip(t, in, code, "feature"))

		ev := lastPush(t, in, code)
		assert.Equal(t, "refs/heads/feature", ev.Ref)
		assert.Equal(t, pushevent.RefTypeBranch, ev.RefType)
		assert.Equal(t, pushevent.ActionCreated, ev.Action)
		assert.Equal(t, string(git.ZeroOID), ev.Before)
		assert.Equal(t, sha, ev.After)
		assert.Equal(t, 1, ev.CommitCount)
		assert.Equal(t, []string{sha}, ev.CommitIds)
		assert.Equal(t, "Add a", ev.CommitTitle)
		require.NotNil(t, ev.UserID)
		assert.Equal(t, f.users["developer"].ID, *ev.UserID)

		p, err := in.DB.Client.Project.Get(context.Background(), code.ID)
		require.NoError(t, err)
		assert.True(t, p.LastActivityAt.After(before), "last_activity_at bumped")

		// An update records the new commits, newest first.
		c2 := g.commit(dir, "b.txt", "b\n", "Add b")
		c3 := g.commit(dir, "c.txt", "c\n", "Add c")
		g.must(dir, "push", "-q", "origin", "feature")
		ev = lastPush(t, in, code)
		assert.Equal(t, pushevent.ActionPushed, ev.Action)
		assert.Equal(t, sha, ev.Before)
		assert.Equal(t, c3, ev.After)
		assert.Equal(t, 2, ev.CommitCount)
		assert.Equal(t, []string{c3, c2}, ev.CommitIds)
		assert.Equal(t, "Add c", ev.CommitTitle)
	})
	t.Run("developer cannot push to the protected default branch", func(t *testing.T) {
		dir := clone("developer")
		g.commit(dir, "d.txt", "d\n", "On main")
		n := pushCount(t, in, code)
		out, err := g.run(dir, "push", "origin", "main")
		require.Error(t, err)
		assert.Contains(t, out, "remote: GitLab: You are not allowed to push code to protected branches on this project.")
		assert.Contains(t, out, "(pre-receive hook declined)")
		assert.Equal(t, mainTip, branchTip(t, in, code, "main"))
		assert.Equal(t, n, pushCount(t, in, code), "nothing recorded")
	})
	t.Run("one refused update refuses the whole push", func(t *testing.T) {
		dir := clone("developer")
		g.must(dir, "checkout", "-q", "-b", "side")
		g.must(dir, "checkout", "-q", "main")
		g.commit(dir, "e.txt", "e\n", "On main again")
		out, err := g.run(dir, "push", "origin", "side", "main")
		require.Error(t, err)
		assert.Contains(t, out, "GitLab: You are not allowed to push code to protected branches on this project.")
		assert.Empty(t, branchTip(t, in, code, "side"))
	})
	t.Run("reporters, guests and read tokens cannot push", func(t *testing.T) {
		dev := f.users["developer"]
		for _, c := range []struct{ user, token, msg string }{
			{"reporter", tok["reporter"], "You are not allowed to push code to this project."},
			{"guest", tok["guest"], "You are not allowed to push code to this project."},
			{"developer", in.NewToken(t, dev.ID, "read_repository"), "You are not allowed to upload code."},
			{"developer", in.NewToken(t, dev.ID, "read_api"), "You are not allowed to upload code."},
		} {
			resp, body := infoRefs(t, in, "g/code.git", "git-receive-pack", c.user, c.token)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, c.user)
			assert.Equal(t, c.msg, body)
		}
		dir := clone("developer")
		g.must(dir, "checkout", "-q", "-b", "nope")
		g.commit(dir, "n.txt", "n\n", "Nope")
		out, err := g.run(dir, "push", g.url("g/code", "reporter", tok["reporter"]), "nope")
		require.Error(t, err)
		assert.Contains(t, out, "You are not allowed to push code to this project.")
		// A write_repository token pushes.
		wtok := in.NewToken(t, dev.ID, "write_repository")
		g.must(dir, "push", "-q", g.url("g/code", "developer", wtok), "nope")
	})
	t.Run("force push needs allow_force_push", func(t *testing.T) {
		dir := clone("maintainer")
		g.commit(dir, "m.txt", "m\n", "Maintainer on main")
		g.must(dir, "push", "-q", "origin", "main")
		g.must(dir, "reset", "-q", "--hard", "HEAD~1")
		rewritten := g.commit(dir, "m2.txt", "m2\n", "Rewritten")
		out, err := g.run(dir, "push", "--force", "origin", "main")
		require.Error(t, err)
		assert.Contains(t, out, "remote: GitLab: You are not allowed to force push code to a protected branch on this project.")
		assert.NotEqual(t, rewritten, branchTip(t, in, code, "main"))

		r := in.Do(t, http.MethodPatch, "/projects/g%2Fcode/protected_branches/main", tok["maintainer"], `{"allow_force_push":true}`)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		g.must(dir, "push", "-q", "--force", "origin", "main")
		assert.Equal(t, rewritten, branchTip(t, in, code, "main"))
		ev := lastPush(t, in, code)
		assert.Equal(t, pushevent.ActionPushed, ev.Action)
		assert.Equal(t, rewritten, ev.After)
		mainTip = rewritten
	})
	t.Run("protected branches are created and deleted by the rules", func(t *testing.T) {
		r := in.Do(t, http.MethodPost, "/projects/g%2Fcode/protected_branches", tok["maintainer"], `{"name":"release/*"}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())

		dir := clone("developer")
		g.must(dir, "checkout", "-q", "-b", "release/1")
		out, err := g.run(dir, "push", "origin", "release/1")
		require.Error(t, err)
		assert.Contains(t, out, "GitLab: You are not allowed to create protected branches on this project.")

		g.must(dir, "push", "-q", g.url("g/code", "maintainer", tok["maintainer"]), "release/1")
		assert.NotEmpty(t, branchTip(t, in, code, "release/1"))

		out, err = g.run(dir, "push", "origin", ":release/1")
		require.Error(t, err)
		assert.Contains(t, out, "GitLab: You are not allowed to delete protected branches from this project. "+
			"Only a project maintainer or owner can delete a protected branch.")
		out, err = g.run(dir, "push", g.url("g/code", "maintainer", tok["maintainer"]), ":release/1")
		require.Error(t, err)
		assert.Contains(t, out, "GitLab: You can only delete protected branches using the web interface.")
		assert.NotEmpty(t, branchTip(t, in, code, "release/1"))

		out, err = g.run(dir, "push", g.url("g/code", "owner", tok["owner"]), ":main")
		require.Error(t, err)
		assert.Contains(t, out, "GitLab: The default branch of a project cannot be deleted.")
	})
	t.Run("unprotected branch deletion is recorded", func(t *testing.T) {
		dir := clone("developer")
		tip := branchTip(t, in, code, "feature")
		g.must(dir, "push", "-q", "origin", ":feature")
		assert.Empty(t, branchTip(t, in, code, "feature"))
		ev := lastPush(t, in, code)
		assert.Equal(t, pushevent.ActionRemoved, ev.Action)
		assert.Equal(t, tip, ev.Before)
		assert.Equal(t, string(git.ZeroOID), ev.After)
		assert.Equal(t, 0, ev.CommitCount)
		assert.Empty(t, ev.CommitIds)
	})
	t.Run("tags are recorded", func(t *testing.T) {
		dir := clone("developer")
		g.must(dir, "tag", "-a", "v1.0", "-m", "Version 1.0")
		g.must(dir, "push", "-q", "origin", "v1.0")
		ev := lastPush(t, in, code)
		assert.Equal(t, "refs/tags/v1.0", ev.Ref)
		assert.Equal(t, pushevent.RefTypeTag, ev.RefType)
		assert.Equal(t, pushevent.ActionCreated, ev.Action)
		assert.Equal(t, 1, ev.CommitCount)
		assert.Equal(t, []string{mainTip}, ev.CommitIds)
	})
}

func TestGit_FirstPush(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	empty := f.project(t, "empty", "private", false)
	g := newGitClient(t, in)
	dir := t.TempDir()
	g.must(dir, "init", "-q", "-b", "trunk")
	c1 := g.commit(dir, "one.txt", "1\n", "One")
	c2 := g.commit(dir, "two.txt", "2\n", "Two")

	t.Run("developer may not create the default branch", func(t *testing.T) {
		out, err := g.run(dir, "push", g.url("g/empty", "developer", f.tokens["developer"]), "trunk")
		require.Error(t, err)
		assert.Contains(t, out, "remote: GitLab: ")
		assert.Contains(t, out, "remote: A default branch (e.g. main) does not yet exist for g/empty")
		assert.Contains(t, out, "remote: Ask a project Owner or Maintainer to create a default branch:")
		assert.Contains(t, out, in.URL+"/g/empty/-/project_members")
	})
	t.Run("maintainer's first branch becomes the protected default branch", func(t *testing.T) {
		g.must(dir, "push", "-q", g.url("g/empty", "maintainer", f.tokens["maintainer"]), "trunk")
		r := in.Do(t, http.MethodGet, "/projects/g%2Fempty", f.tokens["maintainer"], nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		var proj struct {
			DefaultBranch string `json:"default_branch"`
			EmptyRepo     bool   `json:"empty_repo"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &proj))
		assert.Equal(t, "trunk", proj.DefaultBranch)
		assert.False(t, proj.EmptyRepo)

		repo, err := in.Services.Repos.Repository(empty)
		require.NoError(t, err)
		head, err := repo.Head(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "trunk", head)

		r = in.Do(t, http.MethodGet, "/projects/g%2Fempty/protected_branches", f.tokens["maintainer"], nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Contains(t, r.String(), `"name":"trunk"`)

		ev := lastPush(t, in, empty)
		assert.Equal(t, pushevent.ActionCreated, ev.Action)
		assert.Equal(t, 2, ev.CommitCount)
		assert.Equal(t, []string{c2, c1}, ev.CommitIds)
		assert.Equal(t, "Two", ev.CommitTitle)

		// The clone checks out the new default branch.
		wc, out, err := g.clone("g/empty", "developer", f.tokens["developer"])
		require.NoError(t, err, out)
		assert.Equal(t, "trunk", strings.TrimSpace(g.must(wc, "branch", "--show-current")))
	})
}
