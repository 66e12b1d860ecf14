package gitserver_test

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/gitserver"
	"anvil/internal/service/projects"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	gitserver.RunHookIfRequested()
	os.Exit(m.Run())
}

// gitEnv is the environment of the git client in tests: no user or system configuration, no
// prompts, no credential helper, a fixed identity.
func gitEnv(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "LC_ALL=C",
		"GIT_AUTHOR_NAME=Tester", "GIT_AUTHOR_EMAIL=tester@example.com",
		"GIT_COMMITTER_NAME=Tester", "GIT_COMMITTER_EMAIL=tester@example.com",
	}
}

// gitClient runs the git command line against a test server.
type gitClient struct {
	t    *testing.T
	in   *servertest.Instance
	home string
}

func newGitClient(t *testing.T, in *servertest.Instance) *gitClient {
	return &gitClient{t: t, in: in, home: t.TempDir()}
}

// run runs git in dir and returns its combined output and error.
func (g *gitClient) run(dir string, args ...string) (string, error) {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(g.home)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs git and fails the test on error.
func (g *gitClient) must(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.run(dir, args...)
	require.NoError(g.t, err, "git %s: %s", strings.Join(args, " "), out)
	return out
}

// url is the clone URL of a project path with credentials (user may be empty).
func (g *gitClient) url(path, user, password string) string {
	u, err := url.Parse(g.in.URL + "/" + path + ".git")
	require.NoError(g.t, err)
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	return u.String()
}

// clone clones a project into a new directory and returns it.
func (g *gitClient) clone(path, user, password string, extra ...string) (string, string, error) {
	g.t.Helper()
	dir := filepath.Join(g.t.TempDir(), "wc")
	args := append([]string{"clone"}, extra...)
	out, err := g.run(g.home, append(args, g.url(path, user, password), dir)...)
	return dir, out, err
}

// commit makes a commit changing file in dir and returns its id.
func (g *gitClient) commit(dir, file, content, msg string) string {
	g.t.Helper()
	require.NoError(g.t, os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644))
	g.must(dir, "add", file)
	g.must(dir, "commit", "-q", "-m", msg)
	return strings.TrimSpace(g.must(dir, "rev-parse", "HEAD"))
}

// fixture is a group with members of every role and projects made through the project service
// (so they have repositories).
type fixture struct {
	in       *servertest.Instance
	root     *ent.User
	group    *ent.Namespace
	users    map[string]*ent.User
	tokens   map[string]string
	projects map[string]*ent.Project
}

// newFixture makes a public group "g" with a guest, reporter, developer, maintainer and owner
// (each with an api token) and an outsider.
func newFixture(t *testing.T, in *servertest.Instance) *fixture {
	t.Helper()
	root, err := in.Services.Users.FindByRef(context.Background(), "root")
	require.NoError(t, err)
	f := &fixture{in: in, root: root, users: map[string]*ent.User{}, tokens: map[string]string{}, projects: map[string]*ent.Project{}}
	f.group = in.NewGroup(t, "g", "public", nil)
	for _, r := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"developer", 30}, {"maintainer", 40}, {"owner", 50}, {"outsider", 0}} {
		u, tok := in.NewUser(t, r.name)
		if r.level > 0 {
			in.AddGroupMember(t, f.group, u, r.level)
		}
		f.users[r.name], f.tokens[r.name] = u, tok
	}
	return f
}

// project creates a project in the group through the project service.
func (f *fixture) project(t *testing.T, path, visibility string, readme bool) *ent.Project {
	t.Helper()
	nsID := f.group.ID
	p, _, err := f.in.Services.Projects.Create(context.Background(), authz.System(f.root), projects.CreateInput{
		Attributes:           projects.Attributes{Path: &path, Visibility: &visibility},
		NamespaceID:          &nsID,
		InitializeWithReadme: readme,
	})
	require.NoError(t, err)
	f.projects[path] = p
	return p
}
