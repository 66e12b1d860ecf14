package servertest

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/require"
)

// Author signs every commit written by Commit; commit i is dated Epoch plus i minutes.
var (
	Author = git.Signature{Name: "Alice", Email: "alice@example.com"}
	Epoch  = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

// RepoFixture is a server with a public group g and one member of each role (each with an api
// token; Tokens["root"] is root's), an outsider, and projects made through the project service so that they own real
// repositories.
type RepoFixture struct {
	In     *Instance
	Root   *ent.User
	Group  *ent.Namespace
	Users  map[string]*ent.User
	Tokens map[string]string
}

// NewRepoFixture starts the server and makes the group and its members.
func NewRepoFixture(t testing.TB) *RepoFixture {
	t.Helper()
	in := Start(t)
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
	f := &RepoFixture{In: in, Root: root, Users: map[string]*ent.User{}, Tokens: map[string]string{}}
	f.Group = in.NewGroup(t, "g", "public", nil)
	for _, r := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"outsider", 0}} {
		u, tok := in.NewUser(t, r.name)
		if r.level > 0 {
			in.AddGroupMember(t, f.Group, u, r.level)
		}
		f.Users[r.name], f.Tokens[r.name] = u, tok
	}
	f.Tokens["root"] = RootToken
	return f
}

// Project creates a project in g with an empty repository.
func (f *RepoFixture) Project(t testing.TB, path, visibility string) *ent.Project {
	t.Helper()
	return f.newProject(t, path, visibility, false)
}

// ProjectWithReadme creates a project in g whose repository holds the initial README commit.
func (f *RepoFixture) ProjectWithReadme(t testing.TB, path, visibility string) *ent.Project {
	t.Helper()
	return f.newProject(t, path, visibility, true)
}

func (f *RepoFixture) newProject(t testing.TB, path, visibility string, readme bool) *ent.Project {
	t.Helper()
	nsID := f.Group.ID
	p, _, err := f.In.Services.Projects.Create(context.Background(), authz.System(f.Root), projects.CreateInput{
		Attributes: projects.Attributes{Path: &path, Visibility: &visibility}, NamespaceID: &nsID,
		InitializeWithReadme: readme,
	})
	require.NoError(t, err)
	return p
}

// Repo returns a project's repository.
func (f *RepoFixture) Repo(t testing.TB, p *ent.Project) *git.Repository {
	t.Helper()
	r, err := f.In.Services.Repos.Repository(p)
	require.NoError(t, err)
	return r
}

// Commit writes a commit with one file changed on top of parent ("" for a root commit).
func Commit(t testing.TB, r *git.Repository, parent git.ObjectID, file string, minute int) git.ObjectID {
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
	sig := Author
	sig.When = Epoch.Add(time.Duration(minute) * time.Minute)
	opts := git.CommitTreeOptions{Tree: tree, Message: "change " + file + "\n", Author: sig, Committer: sig}
	if parent != "" {
		opts.Parents = []git.ObjectID{parent}
	}
	id, err := r.CommitTree(ctx, opts)
	require.NoError(t, err)
	return id
}

// SetBranch points a branch at a commit.
func SetBranch(t testing.TB, r *git.Repository, name string, id git.ObjectID) {
	t.Helper()
	require.NoError(t, r.UpdateRef(context.Background(), git.BranchRef(name), id, ""))
}

// Do sends a request as a role ("" anonymous).
func (f *RepoFixture) Do(t testing.TB, method, path, role string, body any) *Response {
	t.Helper()
	return f.In.Do(t, method, path, f.Tokens[role], body)
}

// Object decodes a JSON object response.
func Object(t testing.TB, r *Response) map[string]any {
	t.Helper()
	return Decode[map[string]any](t, r)
}

// List decodes a JSON array of objects.
func List(t testing.TB, r *Response) []map[string]any {
	t.Helper()
	return Decode[[]map[string]any](t, r)
}

// Decode unmarshals a JSON response body into a T.
func Decode[T any](t testing.TB, r *Response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

// Keys returns the sorted keys of a JSON object.
func Keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Names returns the "name" of each object.
func Names(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it["name"].(string)
	}
	return out
}

// Esc escapes a path segment as client-go does (dots too).
func Esc(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), ".", "%2E")
}

// RequireError asserts a status and a JSON error body.
func RequireError(t testing.TB, r *Response, status int, key, msg string) {
	t.Helper()
	require.Equal(t, status, r.Status, r.String())
	require.Equal(t, map[string]any{key: msg}, Object(t, r))
}
