package mergerequestapi_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// mergeWorld is a server with a project whose main branch has a README, for the merge tests.
type mergeWorld struct {
	in   *servertest.Instance
	home string
}

func newMergeWorld(t *testing.T) *mergeWorld {
	t.Helper()
	return &mergeWorld{in: servertest.Start(t), home: t.TempDir()}
}

// do sends a request as token and decodes a JSON object answer (nil otherwise).
func (w *mergeWorld) do(t *testing.T, method, path, token string, body any) (*servertest.Response, map[string]any) {
	t.Helper()
	if m, ok := body.(map[string]any); ok {
		data, err := json.Marshal(m)
		require.NoError(t, err)
		body = string(data)
	}
	r := w.in.Do(t, method, path, token, body)
	var m map[string]any
	if len(r.Body) > 0 && r.Body[0] == '{' {
		require.NoError(t, json.Unmarshal(r.Body, &m), r.String())
	}
	return r, m
}

// project creates a project of root's with a README on main, with the given settings
// (merge_method, squash_option, ...), and returns its id and path.
func (w *mergeWorld) project(t *testing.T, name string, settings map[string]any) (int, string) {
	t.Helper()
	r, m := w.do(t, "POST", "/projects", servertest.RootToken, map[string]any{"name": name, "initialize_with_readme": true})
	require.Equal(t, 201, r.Status, r.String())
	id := int(m["id"].(float64))
	if len(settings) > 0 {
		r, _ = w.do(t, "PUT", fmt.Sprintf("/projects/%d", id), servertest.RootToken, settings)
		require.Equal(t, 200, r.Status, r.String())
	}
	return id, m["path_with_namespace"].(string)
}

// commit writes files onto branch (created from start when start is not "") as token and
// returns the commit id.
func (w *mergeWorld) commit(t *testing.T, project int, token, branch, start, message string, files map[string]string) string {
	t.Helper()
	var actions []map[string]any
	for path, content := range files {
		actions = append(actions, map[string]any{"action": "create", "file_path": path, "content": content})
	}
	body := map[string]any{"branch": branch, "commit_message": message, "actions": actions}
	if start != "" {
		body["start_branch"] = start
	}
	r, m := w.do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", project), token, body)
	if r.Status == 400 && strings.Contains(r.String(), "already exists") {
		for i := range actions {
			actions[i]["action"] = "update"
		}
		r, m = w.do(t, "POST", fmt.Sprintf("/projects/%d/repository/commits", project), token, body)
	}
	require.Equal(t, 201, r.Status, r.String())
	return m["id"].(string)
}

// branchTip is a branch's commit id, "" when the branch does not exist.
func (w *mergeWorld) branchTip(t *testing.T, project int, branch string) string {
	t.Helper()
	r, m := w.do(t, "GET", fmt.Sprintf("/projects/%d/repository/branches/%s", project, branch), servertest.RootToken, nil)
	if r.Status == 404 {
		return ""
	}
	require.Equal(t, 200, r.Status, r.String())
	return m["commit"].(map[string]any)["id"].(string)
}

// commitOf reads a commit through the API.
func (w *mergeWorld) commitOf(t *testing.T, project int, sha string) map[string]any {
	t.Helper()
	r, m := w.do(t, "GET", fmt.Sprintf("/projects/%d/repository/commits/%s", project, sha), servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	return m
}

// openMR opens a merge request from source into main of project (as token) and returns its iid.
func (w *mergeWorld) openMR(t *testing.T, project int, token, source, title string, extra map[string]any) int {
	t.Helper()
	body := map[string]any{"source_branch": source, "target_branch": "main", "title": title}
	for k, v := range extra {
		body[k] = v
	}
	r, m := w.do(t, "POST", fmt.Sprintf("/projects/%d/merge_requests", project), token, body)
	require.Equal(t, 201, r.Status, r.String())
	return int(m["iid"].(float64))
}

// merge sends PUT .../merge.
func (w *mergeWorld) merge(t *testing.T, project, iid int, token string, body map[string]any) (*servertest.Response, map[string]any) {
	t.Helper()
	return w.do(t, "PUT", fmt.Sprintf("/projects/%d/merge_requests/%d/merge", project, iid), token, body)
}

// git runs the git command line in dir with no user configuration.
func (w *mergeWorld) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// clone clones a project over smart HTTP with root's token and returns the work tree.
func (w *mergeWorld) clone(t *testing.T, path string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wc")
	url := strings.Replace(w.in.URL, "http://", "http://root:"+servertest.RootToken+"@", 1) + "/" + path + ".git"
	w.git(t, w.home, "clone", "-q", url, dir)
	return dir
}
