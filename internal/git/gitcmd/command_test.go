package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// hardening is the -c part every repository command starts with.
func hardening(d description) []string {
	var out []string
	for _, kv := range globalConfig {
		out = append(out, "-c", kv.key+"="+kv.value)
	}
	for _, kv := range d.config {
		out = append(out, "-c", kv.key+"="+kv.value)
	}
	if d.writes {
		for _, kv := range writeConfig {
			out = append(out, "-c", kv.key+"="+kv.value)
		}
	}
	return out
}

func TestCmd_argv(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		cmd     *Cmd
		repo    string
		want    []string // after the -c pairs
		wantErr string
	}{
		{
			desc: "flags, end of options before arguments, paths after --",
			cmd:  New("log", "--format=%H").Option("--max-count", "20").Arg("main").Paths("-dir/x"),
			repo: "/r.git",
			want: []string{"log", "--format=%H", "--max-count=20", "--end-of-options", "main", "--", "-dir/x"},
		},
		{
			desc: "option values are attached whatever they contain",
			cmd:  New("log").Option("--author", "--all").Option("-p", "abc"),
			repo: "/r.git",
			want: []string{"log", "--author=--all", "-pabc"},
		},
		{
			desc: "no end of options without arguments",
			cmd:  New("for-each-ref", "--count=1"),
			repo: "/r.git",
			want: []string{"for-each-ref", "--count=1"},
		},
		{
			desc: "command without --end-of-options support",
			cmd:  New("blame", "--porcelain").Arg("abc").Paths("f"),
			repo: "/r.git",
			want: []string{"blame", "--porcelain", "abc", "--", "f"},
		},
		{
			desc: "empty Paths still writes the separator",
			cmd:  New("log").Arg("HEAD").Paths(),
			repo: "/r.git",
			want: []string{"log", "--end-of-options", "HEAD", "--"},
		},
		{
			desc: "archive reads paths as arguments after end of options",
			cmd:  New("archive", "--format=tar").Arg("abc").Paths("-dir", "x"),
			repo: "/r.git",
			want: []string{"archive", "--format=tar", "--end-of-options", "abc", "-dir", "x"},
		},
		{
			desc: "an action word right after the subcommand",
			cmd:  New("commit-graph", "--reachable").Action("write"),
			repo: "/r.git",
			want: []string{"commit-graph", "write", "--reachable"},
		},
		{desc: "action not allowed", cmd: New("commit-graph").Action("verify"), repo: "/r.git", wantErr: "action"},
		{desc: "action missing", cmd: New("commit-graph", "--reachable"), repo: "/r.git", wantErr: "action"},
		{desc: "action on a command without actions", cmd: New("log").Action("write"), repo: "/r.git", wantErr: "action"},
		{desc: "argument starting with a dash", cmd: New("log").Arg("--all"), repo: "/r.git", wantErr: "starts with a dash"},
		{desc: "empty argument", cmd: New("log").Arg(""), repo: "/r.git", wantErr: "empty argument"},
		{desc: "argument with NUL", cmd: New("log").Arg("a\x00b"), repo: "/r.git", wantErr: "NUL"},
		{desc: "empty path", cmd: New("log").Paths(""), repo: "/r.git", wantErr: "path"},
		{desc: "flag without dash", cmd: New("log", "all"), repo: "/r.git", wantErr: "flag"},
		{desc: "separator as a flag", cmd: New("log", "--"), repo: "/r.git", wantErr: "flag"},
		{desc: "end of options as a flag", cmd: New("log", "--end-of-options"), repo: "/r.git", wantErr: "flag"},
		{desc: "option name with =", cmd: New("log").Option("--format=", "x"), repo: "/r.git", wantErr: "option"},
		{desc: "long short option", cmd: New("log").Option("-px", "x"), repo: "/r.git", wantErr: "short option"},
		{desc: "option value with NUL", cmd: New("log").Option("--author", "a\x00"), repo: "/r.git", wantErr: "NUL"},
		{desc: "subcommand not allowed", cmd: New("config").Arg("x"), repo: "/r.git", wantErr: "not allowed"},
		{desc: "repository required", cmd: New("log"), repo: "", wantErr: "repository path required"},
		{desc: "repository refused", cmd: New("version"), repo: "/r.git", wantErr: "takes no repository"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			argv, d, err := tc.cmd.argv(tc.repo)
			if tc.wantErr != "" {
				require.ErrorIs(t, err, ErrInvalidArgument)
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			want := append([]string{"--git-dir=" + tc.repo}, hardening(*d)...)
			require.Equal(t, append(want, tc.want...), argv)
		})
	}
}

func TestDescriptions_endOfOptions(t *testing.T) {
	// Every description claiming --end-of-options support must really have it in this git: the
	// same sample invocation must end the same way with and without "--end-of-options" before
	// its arguments (a command that does not know the option prints its usage, exit 129).
	bin, err := exec.LookPath("git")
	require.NoError(t, err)
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "r.git")
	git := func(stdin string, args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(baseEnv(home), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@x")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(out)
		}
		require.NoError(t, err)
		return 0, string(out)
	}
	code, out := git("", "init", "--bare", "-q", repo)
	require.Equal(t, 0, code, out)
	code, out = git("m", "--git-dir="+repo, "commit-tree", "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
	require.Equal(t, 0, code, out)
	code, out = git("", "--git-dir="+repo, "update-ref", "refs/heads/main", strings.TrimSpace(out))
	require.Equal(t, 0, code, out)

	samples := map[string]struct{ flags, args []string }{
		"archive":      {[]string{"--format=tar"}, []string{"HEAD"}},
		"cat-file":     {[]string{"-t"}, []string{"HEAD"}},
		"commit-tree":  {nil, []string{"4b825dc642cb6eb9a060e54bf8d69288fbee4904"}},
		"diff-tree":    {[]string{"-r"}, []string{"HEAD", "HEAD"}},
		"for-each-ref": {nil, []string{"refs/heads/"}},
		"hash-object":  {nil, []string{"/dev/null"}},
		"init":         {[]string{"--bare", "-q"}, []string{filepath.Join(t.TempDir(), "n.git")}},
		"log":          {[]string{"--format=%H"}, []string{"HEAD"}},
		"ls-tree":      {nil, []string{"HEAD"}},
		"merge-base":   {nil, []string{"HEAD", "HEAD"}},
		"merge-tree":   {[]string{"--write-tree"}, []string{"HEAD", "HEAD"}},
		"receive-pack": {[]string{"--advertise-refs", "--stateless-rpc"}, []string{repo}},
		"rev-list":     {nil, []string{"HEAD"}},
		"rev-parse":    {[]string{"--verify"}, []string{"HEAD"}},
		"symbolic-ref": {nil, []string{"HEAD"}},
		"update-ref":   {nil, []string{"refs/heads/x", "HEAD"}},
		"upload-pack":  {[]string{"--advertise-refs", "--stateless-rpc"}, []string{repo}},
	}
	for name, d := range descriptions {
		if !d.endOfOptions {
			continue
		}
		t.Run(name, func(t *testing.T) {
			sample, ok := samples[name]
			require.True(t, ok, "add a sample invocation for %s", name)
			base := []string{}
			if !d.noRepo {
				base = append(base, "--git-dir="+repo)
			}
			base = append(base, name)
			base = append(base, sample.flags...)
			if name == "init" {
				// init cannot run twice on the same directory.
				plain, out := git("", append(base, sample.args...)...)
				require.Equal(t, 0, plain, out)
				eoo, out := git("", append(append(base, "--end-of-options"), filepath.Join(t.TempDir(), "m.git"))...)
				require.Equal(t, 0, eoo, out)
				return
			}
			plain, out1 := git("", append(append([]string{}, base...), sample.args...)...)
			eoo, out2 := git("", append(append(append([]string{}, base...), "--end-of-options"), sample.args...)...)
			require.Equal(t, plain, eoo, "without: %s\nwith: %s", out1, out2)
			require.NotEqual(t, 129, eoo, out2)
		})
	}
}

func TestCheckEnv(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		ok         bool
	}{
		{"GIT_AUTHOR_NAME", "Jane", true},
		{"GIT_PROTOCOL", "version=2", true},
		{"GIT_DIR", "/tmp", false},
		{"GIT_CONFIG_PARAMETERS", "'core.hooksPath=/x'", false},
		{"PATH", "/bin", false},
		{"GIT_AUTHOR_NAME", "a\nb", false},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			err := checkEnv(tc.key, tc.value)
			if tc.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, ErrInvalidArgument)
			}
		})
	}
}

func TestBaseEnv_pinned(t *testing.T) {
	t.Setenv("GIT_DIR", "/nowhere")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.bare=false'")
	env := strings.Join(baseEnv("/home/x"), "\n")
	for _, want := range []string{"HOME=/home/x", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1", "GIT_LITERAL_PATHSPECS=1", "LC_ALL=C", "TZ=UTC"} {
		require.Contains(t, env, want)
	}
	require.NotContains(t, env, "GIT_DIR")
	require.NotContains(t, env, "GIT_CONFIG_PARAMETERS")
}

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Version
		err  bool
	}{
		{"git version 2.39.5\n", Version{2, 39, 5}, false},
		{"git version 2.40.0.windows.1", Version{2, 40, 0}, false},
		{"git version 2.45.0-rc1", Version{2, 45, 0}, false},
		{"git version 2.45", Version{}, true},
		{"nonsense", Version{}, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			v, err := ParseVersion(tc.in)
			if tc.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, v)
		})
	}
	require.True(t, Version{2, 40, 0}.AtLeast(Version{2, 40, 0}))
	require.True(t, Version{3, 0, 0}.AtLeast(Version{2, 40, 1}))
	require.False(t, Version{2, 39, 5}.AtLeast(Version{2, 40, 0}))
	require.Equal(t, "2.39.5", Version{2, 39, 5}.String())
}

func newRunner(t *testing.T, timeout time.Duration) *Runner {
	t.Helper()
	r, err := NewRunner(context.Background(), Config{HomeDir: t.TempDir(), Timeout: timeout})
	require.NoError(t, err)
	return r
}

func initRepo(t *testing.T, r *Runner) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "r.git")
	require.NoError(t, r.Run(context.Background(), "", New("init", "--bare", "--quiet", "--initial-branch=main").Arg(repo)))
	return repo
}

func TestRunner_run(t *testing.T) {
	ctx := context.Background()
	r := newRunner(t, 0)
	require.GreaterOrEqual(t, r.Version().Major, 2)
	repo := initRepo(t, r)

	t.Run("init used no template", func(t *testing.T) {
		_, err := os.Stat(filepath.Join(repo, "hooks"))
		require.True(t, os.IsNotExist(err), "hooks directory copied from a template")
		head, err := os.ReadFile(filepath.Join(repo, "HEAD"))
		require.NoError(t, err)
		require.Equal(t, "ref: refs/heads/main\n", string(head))
	})
	t.Run("stdin and stdout", func(t *testing.T) {
		out, err := r.Output(ctx, repo, New("hash-object", "--stdin"), Stdin(strings.NewReader("hello\n")))
		require.NoError(t, err)
		require.Equal(t, "ce013625030ba8dba906f756967f9e9ca394464a\n", string(out))
	})
	t.Run("failure carries stderr and exit code", func(t *testing.T) {
		_, err := r.Output(ctx, repo, New("rev-parse", "--verify").Arg("nope"))
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, 128, e.ExitCode)
		require.Equal(t, "rev-parse", e.Command)
		require.Contains(t, e.Stderr, "Needed a single revision")
		require.Equal(t, "git rev-parse: fatal: Needed a single revision", err.Error())
		require.Equal(t, 128, ExitCode(err))
		require.Equal(t, -1, ExitCode(errors.New("x")))
	})
	t.Run("validation error before start", func(t *testing.T) {
		err := r.Run(ctx, repo, New("log").Arg("-x"))
		require.ErrorIs(t, err, ErrInvalidArgument)
		err = r.Run(ctx, repo, New("log"), Env("GIT_DIR", "/x"))
		require.ErrorIs(t, err, ErrInvalidArgument)
	})
	t.Run("environment option", func(t *testing.T) {
		tree, err := r.Output(ctx, repo, New("hash-object", "-w", "-ttree", "--stdin"), Stdin(strings.NewReader("")))
		require.NoError(t, err)
		out, err := r.Output(ctx, repo, New("commit-tree").Arg(strings.TrimSpace(string(tree))),
			Stdin(strings.NewReader("m\n")),
			Env("GIT_AUTHOR_NAME", "A"), Env("GIT_AUTHOR_EMAIL", "a@x"), Env("GIT_AUTHOR_DATE", "@1600000000 +0200"),
			Env("GIT_COMMITTER_NAME", "C"), Env("GIT_COMMITTER_EMAIL", "c@x"), Env("GIT_COMMITTER_DATE", "@1600000000 +0200"))
		require.NoError(t, err)
		// Pinned identities and dates give a stable id.
		require.Equal(t, "b42b350b9178d1b03556aa6926d7a0dec0e06e27\n", string(out))
	})
	t.Run("cancelled context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		err := r.Run(cctx, repo, New("for-each-ref"))
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("repository hooks never run", func(t *testing.T) {
		// A hook in the repository would run on update-ref's reference-transaction; it must not.
		hooks := filepath.Join(repo, "hooks")
		require.NoError(t, os.MkdirAll(hooks, 0o755))
		marker := filepath.Join(t.TempDir(), "ran")
		script := "#!/bin/sh\ntouch " + marker + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(hooks, "reference-transaction"), []byte(script), 0o755))
		commit, err := r.Output(ctx, repo, New("commit-tree").Arg("4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
			Stdin(strings.NewReader("m")), Env("GIT_AUTHOR_NAME", "A"), Env("GIT_AUTHOR_EMAIL", "a@x"),
			Env("GIT_COMMITTER_NAME", "A"), Env("GIT_COMMITTER_EMAIL", "a@x"))
		require.NoError(t, err)
		in := "update refs/heads/x " + strings.TrimSpace(string(commit)) + "\n"
		require.NoError(t, r.Run(ctx, repo, New("update-ref", "--stdin"), Stdin(strings.NewReader(in))))
		_, err = os.Stat(marker)
		require.True(t, os.IsNotExist(err), "hook ran")
	})
}

func TestRunner_timeout(t *testing.T) {
	r := newRunner(t, 100*time.Millisecond)
	repo := initRepo(t, newRunner(t, 0)) // git init itself may take longer than 100 ms under load
	// update-ref --stdin waits for input that never comes: the default time limit kills it.
	p, err := r.Start(context.Background(), repo, New("update-ref", "--stdin"))
	require.NoError(t, err)
	start := time.Now()
	_, _ = io.Copy(io.Discard, p.Stdout)
	err = p.Wait()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 5*time.Second)
	require.Equal(t, -1, ExitCode(err))
}

func TestRunner_longLivedHasNoTimeout(t *testing.T) {
	r := newRunner(t, 50*time.Millisecond)
	repo := initRepo(t, newRunner(t, 0)) // git init itself may take longer than 50 ms under load
	ctx, cancel := context.WithCancel(context.Background())
	p, err := r.Start(ctx, repo, New("cat-file", "--batch-command", "--buffer"))
	require.NoError(t, err)
	time.Sleep(150 * time.Millisecond) // longer than the default limit
	_, err = io.WriteString(p.Stdin, "info 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nflush\n")
	require.NoError(t, err)
	buf := make([]byte, 64)
	n, err := p.Stdout.Read(buf)
	require.NoError(t, err)
	require.Equal(t, "4b825dc642cb6eb9a060e54bf8d69288fbee4904 tree 0\n", string(buf[:n]))
	cancel()
	require.ErrorIs(t, p.Wait(), context.Canceled)
}

func TestCapped(t *testing.T) {
	c := &capped{max: 4}
	n, err := c.Write([]byte("abcdef"))
	require.NoError(t, err)
	require.Equal(t, 6, n)
	_, _ = c.Write([]byte("gh"))
	require.Equal(t, "abcd", c.String())
	var e Error
	e.Command, e.ExitCode, e.Stderr = "x", 1, "l1\nl2\nl3\nl4\n"
	require.Equal(t, "git x: l1; l2; l3", e.Error())
	e.Stderr = ""
	require.Equal(t, "git x: exit status 1", e.Error())
	require.True(t, bytes.Equal(nil, nil))
}
