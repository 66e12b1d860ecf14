package commitapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/git/gittest"

	"github.com/stretchr/testify/require"
)

// Identities and dates of seeded commits: a +02:00 zone, so dates must keep their offset.
var (
	alice  = git.Signature{Name: "Alice", Email: "alice@example.com"}
	bob    = git.Signature{Name: "Bob", Email: "bob@example.com"}
	merger = git.Signature{Name: "Merger", Email: "merger@example.com"}
	epoch  = time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 2*3600))
)

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
	s.first = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: alice, Minute: 0, Submodule: "lib",
		Message: "First commit\n\nBody line.\n\nSigned-off-by: Alice <alice@example.com>\nSigned-off-by: Bob <bob@example.com>\n",
		Files:   map[string]string{"README.md": "# Demo\n\nHello.\n", "src/main.go": "package main\n"}})
	gittest.SetRef(t, r, git.TagRef("v1.0"), s.first)
	s.second = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.first, Parents: []git.ObjectID{s.first}, Author: bob, Minute: 1,
		Message: "Second [commit]\n", Files: map[string]string{"README.md": "# Demo\n\nHello, world.\n", "CHANGELOG.md": "v1\n"}})
	s.feature = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.first, Parents: []git.ObjectID{s.first}, Author: alice, Minute: 2,
		Message: "Add feature\n", Files: map[string]string{"feature.txt": "feature\n"}})
	gittest.SetRef(t, r, git.BranchRef("feature"), s.feature)
	s.merge = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Base: s.second, Parents: []git.ObjectID{s.second, s.feature}, Author: merger, Minute: 3,
		Message: "Merge branch 'feature'\n", Files: map[string]string{"feature.txt": "feature\n"}})
	gittest.SetRef(t, r, git.BranchRef("main"), s.merge)
	s.orphan = gittest.WriteCommit(t, r, gittest.Write{Epoch: epoch, Author: bob, Minute: 4, Files: map[string]string{"other.txt": "other\n"}})
	gittest.SetRef(t, r, git.BranchRef("orphan"), s.orphan)
	return s
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
