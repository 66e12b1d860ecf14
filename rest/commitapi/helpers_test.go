package commitapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/require"
)

// Identities and dates of seeded commits: a +02:00 zone, so dates must keep their offset.
var (
	alice  = git.Signature{Name: "Alice", Email: "alice@example.com"}
	bob    = git.Signature{Name: "Bob", Email: "bob@example.com"}
	merger = git.Signature{Name: "Merger", Email: "merger@example.com"}
	epoch  = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

// fixture is a server with a public group g, members of it at every role (each with an api
// token) and an outsider.
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
	f.tokens["root"] = servertest.RootToken
	return f
}

// project creates a project in g (with a real, empty repository unless readme).
func (f *fixture) project(t *testing.T, path, visibility string, readme bool) *ent.Project {
	t.Helper()
	nsID := f.group.ID
	p, _, err := f.in.Services.Projects.Create(context.Background(), authz.System(f.root), projects.CreateInput{
		Attributes:           projects.Attributes{Path: &path, Visibility: &visibility},
		NamespaceID:          &nsID,
		InitializeWithReadme: readme,
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

// commitSpec is one commit to write: files to create or replace, files to delete, parents,
// author and minutes after epoch.
type commitSpec struct {
	base    git.ObjectID
	parents []git.ObjectID
	files   map[string]string
	deletes []string
	author  git.Signature
	minute  int
	message string
	// gitlink adds a submodule entry with this path pointing at subCommit.
	gitlink string
}

// subCommit is what a seeded submodule points at (it need not exist).
const subCommit = "1234567890123456789012345678901234567890"

// writeCommit writes a commit object (no ref moves).
func writeCommit(t *testing.T, r *git.Repository, c commitSpec) git.ObjectID {
	t.Helper()
	ctx := context.Background()
	var actions []git.TreeAction
	for p, content := range c.files {
		action := git.ActionCreate
		if c.base != "" {
			if _, err := r.TreeEntryAt(ctx, string(c.base), p); err == nil {
				action = git.ActionUpdate
			}
		}
		actions = append(actions, git.TreeAction{Action: action, Path: p, Content: []byte(content)})
	}
	for _, p := range c.deletes {
		actions = append(actions, git.TreeAction{Action: git.ActionDelete, Path: p})
	}
	tree, err := r.EditTree(ctx, string(c.base), actions)
	require.NoError(t, err)
	if c.gitlink != "" {
		// The git layer only moves existing submodules; add one with the git CLI (tests only).
		listing := gittest.Git(t, r.Path(), nil, "ls-tree", string(tree))
		listing += "160000 commit " + subCommit + "\t" + c.gitlink + "\n"
		tree = git.ObjectID(strings.TrimSpace(gittest.Git(t, r.Path(), []byte(listing), "mktree", "--missing")))
	}
	sig := c.author
	sig.When = epoch.Add(time.Duration(c.minute) * time.Minute)
	msg := c.message
	if msg == "" {
		msg = "commit by " + sig.Name + "\n"
	}
	id, err := r.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: c.parents, Message: msg, Author: sig, Committer: sig})
	require.NoError(t, err)
	return id
}

// setRef points a ref at a commit.
func setRef(t *testing.T, r *git.Repository, name string, id git.ObjectID) {
	t.Helper()
	require.NoError(t, r.UpdateRef(context.Background(), name, id, ""))
}

// seeded is the ids of a seeded repository's commits.
type seeded struct {
	first, second, feature, merge, orphan git.ObjectID
}

// seed writes this history into r:
//
//	first   (alice, 05:06)  README.md, src/main.go, a submodule "lib"; tag v1.0 → first
//	second  (bob,   05:07)  README.md changed, CHANGELOG.md added
//	feature (alice, 05:08)  from first: feature.txt added                   → feature
//	merge   (merger,05:09)  second + feature                               → main
//	orphan  (bob,   05:10)  unrelated root commit                          → orphan
func seed(t *testing.T, r *git.Repository) seeded {
	t.Helper()
	var s seeded
	s.first = writeCommit(t, r, commitSpec{author: alice, minute: 0, gitlink: "lib",
		message: "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\nSigned-off-by: Bob <bob@example.com>\n",
		files:   map[string]string{"README.md": "# Demo\n\nHello.\n", "src/main.go": "package main\n"}})
	setRef(t, r, git.TagRef("v1.0"), s.first)
	s.second = writeCommit(t, r, commitSpec{base: s.first, parents: []git.ObjectID{s.first}, author: bob, minute: 1,
		message: "Second [commit]\n", files: map[string]string{"README.md": "# Demo\n\nHello, world.\n", "CHANGELOG.md": "v1\n"}})
	s.feature = writeCommit(t, r, commitSpec{base: s.first, parents: []git.ObjectID{s.first}, author: alice, minute: 2,
		message: "Add feature\n", files: map[string]string{"feature.txt": "feature\n"}})
	setRef(t, r, git.BranchRef("feature"), s.feature)
	s.merge = writeCommit(t, r, commitSpec{base: s.second, parents: []git.ObjectID{s.second, s.feature}, author: merger, minute: 3,
		message: "Merge branch 'feature'\n", files: map[string]string{"feature.txt": "feature\n"}})
	setRef(t, r, git.BranchRef("main"), s.merge)
	s.orphan = writeCommit(t, r, commitSpec{author: bob, minute: 4, files: map[string]string{"other.txt": "other\n"}})
	setRef(t, r, git.BranchRef("orphan"), s.orphan)
	return s
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

// ids returns the "id" of each object.
func ids(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, m := range items {
		out[i], _ = m["id"].(string)
	}
	return out
}

// strs converts commit ids.
func strs(list ...git.ObjectID) []string {
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = string(id)
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

// base is the API path of a project's repository.
func base(p *ent.Project) string {
	return "/projects/" + itoa(p.ID) + "/repository"
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// doForm posts a raw form-encoded body (in the order given, which Rack's grouping of
// name[][key] parameters depends on).
func doForm(t *testing.T, in *servertest.Instance, path, token, body string) *servertest.Response {
	t.Helper()
	req, err := http.NewRequest("POST", in.URL+"/api/v4"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("PRIVATE-TOKEN", token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}
