package repositoryapi_test

import (
	"context"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

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
	*servertest.RepoFixture

	pub     *ent.Project
	pubRepo *git.Repository
	pubSeed seeded
	// readme is the blob id of README.md on main, per seeded project path.
	readme map[string]string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{RepoFixture: servertest.NewRepoFixture(t)}
	f.readme = map[string]string{}
	for _, c := range []struct{ path, visibility string }{{"pub", "public"}, {"priv", "private"}, {"int", "internal"}, {"off", "public"}} {
		p := f.Project(t, c.path, c.visibility)
		r := f.Repo(t, p)
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
	s.first = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Minute: 0, Submodule: "lib", Message: "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\n", Files: map[string]string{
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
	gittest.SetRef(t, r, git.TagRef("v1.0"), s.first)
	s.second = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.first, Parents: []git.ObjectID{s.first}, Author: bob, Minute: 1,
		Files: map[string]string{"README.md": "# Demo\n\nHello, world.\n", "CHANGELOG.md": "v1\n"}})
	s.feature = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.first, Parents: []git.ObjectID{s.first}, Author: alice, Minute: 2,
		Files: map[string]string{"feature.txt": "feature\n", "src/main.go": "package main\n\nfunc main() { println(1) }\n"}})
	gittest.SetRef(t, r, git.BranchRef("feature"), s.feature)
	s.merge = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.second, Parents: []git.ObjectID{s.second, s.feature}, Author: merger, Minute: 3,
		Files: map[string]string{"feature.txt": "feature\n", "src/main.go": "package main\n\nfunc main() { println(1) }\n"}})
	gittest.SetRef(t, r, git.BranchRef("main"), s.merge)
	s.orphan = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: bob, Minute: 4, Files: map[string]string{"other.txt": "other\n"}})
	gittest.SetRef(t, r, git.BranchRef("orphan"), s.orphan)
	return s
}
