package repositoryapi_test

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
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/require"
)

// Identities and dates of the seeded commits.
var (
	alice  = git.Signature{Name: "Alice", Email: "alice@example.com"}
	bob    = git.Signature{Name: "Bob", Email: "bob@example.com"}
	merger = git.Signature{Name: "Merger", Email: "merger@example.com"}
	epoch  = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

// pngBytes is a 1x1 PNG image.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// TestRepositoryAPI runs the package's tests against one shared server (each server costs a
// fresh database: about a second on PostgreSQL). Tests that change a repository make their own
// project.
func TestRepositoryAPI(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name string
		run  func(*testing.T, *fixture)
	}{
		{"Tree", testTree}, {"TreeKeyset", testTreeKeyset}, {"TreeDuplicateBlobs", testTreeDuplicateBlobs},
		{"Blobs", testBlobs}, {"BlobsBinaryDownload", testBlobsBinaryDownload},
		{"Archive", testArchive}, {"ArchiveLarge", testArchiveLarge},
		{"Compare", testCompare}, {"CompareFork", testCompareFork}, {"CompareLimits", testCompareLimits},
		{"Contributors", testContributors}, {"MergeBase", testMergeBase},
		{"FilesRead", testFilesRead}, {"FilesLfsPointer", testFilesLfsPointer}, {"FilesBlame", testFilesBlame},
		{"FilesWrite", testFilesWrite}, {"FilesWriteEmptyRepository", testFilesWriteEmptyRepository},
		{"FilesConcurrentWrites", testFilesConcurrentWrites},
		{"Permissions", testPermissions}, {"PermissionsScopes", testPermissionsScopes},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, f) })
	}
}

// fixture is a server with a public group g and its members (guest, reporter, developer,
// maintainer; each with an api token), an outsider, and four seeded projects made through the
// project service (so that they own real repositories): pub (public), int (internal), priv
// (private) and off (public; its repository feature is disabled by the permissions test). The
// tests only read them.
type fixture struct {
	in     *servertest.Instance
	root   *ent.User
	group  *ent.Namespace
	users  map[string]*ent.User
	tokens map[string]string

	pub     *ent.Project
	pubRepo *git.Repository
	pubSeed seeded
	// readme is the blob id of README.md on main, per seeded project path.
	readme map[string]string
}

func newFixture(t testing.TB) *fixture {
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
	f.readme = map[string]string{}
	for _, c := range []struct{ path, visibility string }{{"pub", "public"}, {"priv", "private"}, {"int", "internal"}, {"off", "public"}} {
		p := f.project(t, c.path, c.visibility)
		r := f.repo(t, p)
		s := seed(t, r)
		e, err := r.TreeEntryAt(context.Background(), string(s.merge), "README.md")
		require.NoError(t, err)
		f.readme[c.path] = string(e.ID)
		if c.path == "pub" {
			f.pub, f.pubRepo, f.pubSeed = p, r, s
		}
	}
	return f
}

// project creates a project in g with an empty repository.
func (f *fixture) project(t testing.TB, path, visibility string) *ent.Project {
	t.Helper()
	nsID := f.group.ID
	p, _, err := f.in.Services.Projects.Create(context.Background(), authz.System(f.root), projects.CreateInput{
		Attributes:  projects.Attributes{Path: &path, Visibility: &visibility},
		NamespaceID: &nsID,
	})
	require.NoError(t, err)
	return p
}

// repo returns a project's repository.
func (f *fixture) repo(t testing.TB, p *ent.Project) *git.Repository {
	t.Helper()
	r, err := f.in.Services.Repos.Repository(p)
	require.NoError(t, err)
	return r
}

// commitSpec is one commit to write: files to create or replace (path → content; a "+x"
// suffix on the path makes the file executable), files to delete, parents and author.
type commitSpec struct {
	base    git.ObjectID // tree source ("" = empty tree)
	parents []git.ObjectID
	files   map[string]string
	deletes []string
	author  git.Signature
	minute  int
	message string
	// submodule adds a submodule (gitlink) with this name at the root.
	submodule string
}

// writeCommit writes a commit object (no ref moves).
func writeCommit(t testing.TB, r *git.Repository, c commitSpec) git.ObjectID {
	t.Helper()
	ctx := context.Background()
	var actions []git.TreeAction
	for p, content := range c.files {
		exec := strings.HasSuffix(p, "+x")
		p = strings.TrimSuffix(p, "+x")
		action := git.ActionCreate
		if c.base != "" {
			if _, err := r.TreeEntryAt(ctx, string(c.base), p); err == nil {
				action = git.ActionUpdate
			}
		}
		actions = append(actions, git.TreeAction{Action: action, Path: p, Content: []byte(content)})
		if exec {
			actions = append(actions, git.TreeAction{Action: git.ActionChmod, Path: p, Executable: true})
		}
	}
	for _, p := range c.deletes {
		actions = append(actions, git.TreeAction{Action: git.ActionDelete, Path: p})
	}
	tree, err := r.EditTree(ctx, string(c.base), actions)
	require.NoError(t, err)
	if c.submodule != "" {
		// The git layer cannot add a gitlink; write the tree with the git CLI (tests only).
		listing := gittest.Git(t, r.Path(), nil, "ls-tree", string(tree))
		listing += "160000 commit " + subCommit + "\t" + c.submodule + "\n"
		tree = git.ObjectID(strings.TrimSpace(gittest.Git(t, r.Path(), []byte(listing), "mktree", "--missing")))
	}
	sig := c.author
	sig.When = epoch.Add(time.Duration(c.minute) * time.Minute)
	msg := c.message
	if msg == "" {
		msg = "commit " + sig.Name + "\n"
	}
	id, err := r.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: c.parents, Message: msg, Author: sig, Committer: sig})
	require.NoError(t, err)
	return id
}

// subCommit is the commit the seeded submodule points at (it need not exist).
const subCommit = "1234567890123456789012345678901234567890"

// setRef points a ref at a commit.
func setRef(t testing.TB, r *git.Repository, name string, id git.ObjectID) {
	t.Helper()
	require.NoError(t, r.UpdateRef(context.Background(), name, id, ""))
}

// seeded is the content of a seeded repository: the ids of its commits.
type seeded struct {
	first, second, feature, merge, orphan git.ObjectID
}

// seed writes the standard history into r:
//
//	first   (alice)  README.md, docs/guide.md, docs/img/logo.png, src/main.go, src/util/util.go,
//	                 bin/run.sh (executable), empty.txt, a/dup.txt and b/dup.txt (same content),
//	                 a submodule "lib"; tag v1.0
//	second  (bob)    README.md changed, CHANGELOG.md added          → main
//	feature (alice)  from first: feature.txt added, src/main.go changed → feature
//	merge   (merger) second + feature merged                      → main
//	orphan  (bob)    unrelated root commit                        → orphan
func seed(t testing.TB, r *git.Repository) seeded {
	t.Helper()
	var s seeded
	s.first = writeCommit(t, r, commitSpec{author: alice, minute: 0, submodule: "lib", message: "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\n", files: map[string]string{
		"README.md":         "# Demo\n\nHello.\n",
		"docs/guide.md":     "Guide\n",
		"docs/img/logo.png": string(pngBytes),
		"src/main.go":       "package main\n\nfunc main() {}\n",
		"src/util/util.go":  "package util\n",
		"bin/run.sh+x":      "#!/bin/sh\necho run\n",
		"empty.txt":         "",
		"a/dup.txt":         "same\n",
		"b/dup.txt":         "same\n",
	}})
	setRef(t, r, git.TagRef("v1.0"), s.first)
	s.second = writeCommit(t, r, commitSpec{base: s.first, parents: []git.ObjectID{s.first}, author: bob, minute: 1,
		files: map[string]string{"README.md": "# Demo\n\nHello, world.\n", "CHANGELOG.md": "v1\n"}})
	s.feature = writeCommit(t, r, commitSpec{base: s.first, parents: []git.ObjectID{s.first}, author: alice, minute: 2,
		files: map[string]string{"feature.txt": "feature\n", "src/main.go": "package main\n\nfunc main() { println(1) }\n"}})
	setRef(t, r, git.BranchRef("feature"), s.feature)
	s.merge = writeCommit(t, r, commitSpec{base: s.second, parents: []git.ObjectID{s.second, s.feature}, author: merger, minute: 3,
		files: map[string]string{"feature.txt": "feature\n", "src/main.go": "package main\n\nfunc main() { println(1) }\n"}})
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
