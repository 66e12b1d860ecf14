package forkapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/require"
)

// author signs every seeded commit; commit i is dated epoch plus i minutes.
var (
	author = git.Signature{Name: "Alice", Email: "alice@example.com"}
	epoch  = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

// fixture is a server with a public group g and one member of each role (each with an api
// token), an outsider, and projects made through the project service so that they own real
// repositories.
type fixture struct {
	in     *servertest.Instance
	root   *ent.User
	group  *ent.Namespace
	users  map[string]*ent.User
	tokens map[string]string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	in := servertest.Start(t)
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
	f := &fixture{in: in, root: root, users: map[string]*ent.User{}, tokens: map[string]string{}}
	f.group = in.NewGroup(t, "g", "public", nil)
	for _, r := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"outsider", 0}} {
		u, tok := in.NewUser(t, r.name)
		if r.level > 0 {
			in.AddGroupMember(t, f.group, u, r.level)
		}
		f.users[r.name], f.tokens[r.name] = u, tok
	}
	return f
}

// project creates a project in g with an empty repository.
func (f *fixture) project(t *testing.T, path, visibility string) *ent.Project {
	t.Helper()
	nsID := f.group.ID
	p, _, err := f.in.Services.Projects.Create(context.Background(), authz.System(f.root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path, Visibility: &visibility}, NamespaceID: &nsID,
	})
	require.NoError(t, err)
	return p
}

// repo returns a project's repository.
func (f *fixture) repo(t *testing.T, p *ent.Project) *git.Repository {
	t.Helper()
	r, err := f.in.Services.Repos.Repository(p)
	require.NoError(t, err)
	return r
}

// commit writes a commit with one file changed on top of parent ("" for a root commit).
func commit(t *testing.T, r *git.Repository, parent git.ObjectID, file string, minute int) git.ObjectID {
	t.Helper()
	ctx := context.Background()
	action := git.ActionCreate
	if parent != "" {
		if _, err := r.TreeEntryAt(ctx, string(parent), file); err == nil {
			action = git.ActionUpdate
		}
	}
	tree, err := r.EditTree(ctx, string(parent), []git.TreeAction{{Action: action, Path: file, Content: []byte(file + " " + time.Duration(minute).String() + "\n")}})
	require.NoError(t, err)
	sig := author
	sig.When = epoch.Add(time.Duration(minute) * time.Minute)
	opts := git.CommitTreeOptions{Tree: tree, Message: "change " + file + "\n", Author: sig, Committer: sig}
	if parent != "" {
		opts.Parents = []git.ObjectID{parent}
	}
	id, err := r.CommitTree(ctx, opts)
	require.NoError(t, err)
	return id
}

// setBranch points a branch at a commit.
func setBranch(t *testing.T, r *git.Repository, name string, id git.ObjectID) {
	t.Helper()
	require.NoError(t, r.UpdateRef(context.Background(), git.BranchRef(name), id, ""))
}

// do sends a request as a role ("" anonymous).
func (f *fixture) do(t *testing.T, method, path, role string, body any) *servertest.Response {
	t.Helper()
	return f.in.Do(t, method, path, f.tokens[role], body)
}

// object decodes a JSON object response.
func object(t *testing.T, r *servertest.Response) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), r.String())
	return m
}

// list decodes a JSON array of objects.
func list(t *testing.T, r *servertest.Response) []map[string]any {
	t.Helper()
	var m []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), r.String())
	return m
}

// names returns the "name" of each object.
func names(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it["name"].(string)
	}
	return out
}

// esc escapes a path segment as client-go does (dots too).
func esc(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), ".", "%2E")
}

// requireError asserts a status and a JSON error body.
func requireError(t *testing.T, r *servertest.Response, status int, key, msg string) {
	t.Helper()
	require.Equal(t, status, r.Status, r.String())
	require.Equal(t, map[string]any{key: msg}, object(t, r))
}
