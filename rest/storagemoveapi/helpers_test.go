package storagemoveapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/config"
	"anvil/internal/git/storage"
	"anvil/internal/gitserver"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	gitserver.RunHookIfRequested() // pushes run the test binary as git's pre-receive hook
	os.Exit(m.Run())
}

const root = servertest.RootToken

// world is a server with two storages, "default" (where new repositories go) and "second".
type world struct {
	in    *servertest.Instance
	roots map[string]string
	home  string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	dir := t.TempDir()
	roots := map[string]string{"default": filepath.Join(dir, "default"), "second": filepath.Join(dir, "second")}
	in := servertest.Start(t, func(c *config.Config) { c.RepositoryStorages = roots })
	return &world{in: in, roots: roots, home: t.TempDir()}
}

// project creates a project through the API with a README commit, another commit and a tag;
// it returns the project id.
func (w *world) project(t *testing.T, name string) int {
	t.Helper()
	r := w.in.Do(t, "POST", "/projects", root, `{"name":"`+name+`","initialize_with_readme":true}`)
	require.Equal(t, 201, r.Status, r.String())
	id := int(servertest.Object(t, r)["id"].(float64))
	w.commit(t, id, "src/main.go", 201)
	r = w.in.Do(t, "POST", fmt.Sprintf("/projects/%d/repository/tags", id), root, `{"tag_name":"v1","ref":"main","message":"first"}`)
	require.Equal(t, 201, r.Status, r.String())
	w.in.WaitJobs(t) // housekeeping after the first push is done
	return id
}

// commit adds a file on main through the API and asserts the status.
func (w *world) commit(t *testing.T, id int, file string, status int) *servertest.Response {
	t.Helper()
	body := `{"branch":"main","commit_message":"add ` + file + `","actions":[{"action":"create","file_path":"` + file + `","content":"package main\n"}]}`
	r := w.in.Do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", id), root, body)
	require.Equal(t, status, r.Status, r.String())
	return r
}

// repoPath is where project id's repository sits on a storage.
func (w *world) repoPath(storageName string, id int) string {
	return filepath.Join(w.roots[storageName], storage.HashedPath(int64(id)))
}

// git runs the git command line with no user configuration and fails on error unless
// allowFail.
func (w *world) git(t *testing.T, dir string, allowFail bool, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
		"GIT_AUTHOR_NAME=Tester", "GIT_AUTHOR_EMAIL=tester@example.com",
		"GIT_COMMITTER_NAME=Tester", "GIT_COMMITTER_EMAIL=tester@example.com",
	}
	out, err := cmd.CombinedOutput()
	if !allowFail {
		require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	}
	return string(out), err
}

// cloneURL is the HTTP clone URL of a project path with root's token.
func (w *world) cloneURL(path string) string {
	return strings.Replace(w.in.URL, "http://", "http://root:"+root+"@", 1) + "/" + path + ".git"
}

// clone clones path over HTTP into a new directory.
func (w *world) clone(t *testing.T, path string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wc")
	w.git(t, w.home, false, "clone", "-q", w.cloneURL(path), dir)
	return dir
}

// moves lists GET path as root.
func (w *world) moves(t *testing.T, path string) []map[string]any {
	t.Helper()
	r := w.in.Do(t, "GET", path, root, nil)
	require.Equal(t, 200, r.Status, r.String())
	return servertest.List(t, r)
}

// setReadOnly sets the project's repository_read_only flag in the database.
func (w *world) setReadOnly(t *testing.T, id int, on bool) {
	t.Helper()
	require.NoError(t, w.in.DB.Client.Project.UpdateOneID(id).SetRepositoryReadOnly(on).Exec(context.Background()))
}

func jsonBody(t *testing.T, r *servertest.Response) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(r.Body, &v), r.String())
	return v
}

func itoa(n int) string { return strconv.Itoa(n) }
