package git

import (
	"context"
	"fmt"
	"strings"

	"anvil/internal/git/catfile"
	"anvil/internal/git/difftree"
	"anvil/internal/git/gitcmd"
)

// ReceivePackHooks are the hooks a push runs: Anvil's own hook executable, never anything from
// the repository (see gitcmd.HooksPath).
type ReceivePackHooks struct {
	// Dir is an absolute directory holding the hook executables (pre-receive, post-receive).
	Dir string
	// Env is handed to the hooks; every name must start with "ANVIL_HOOK".
	Env map[string]string
}

// ReceivePackWithHooks serves a push like ReceivePack, but runs the hooks of hooks.Dir: git
// calls pre-receive with the pushed objects still in quarantine (a refusal there moves no ref
// and keeps no object) and post-receive with the refs it updated.
func (r *Repository) ReceivePackWithHooks(ctx context.Context, opts PackOptions, hooks ReceivePackHooks) error {
	if opts.AdvertiseRefs {
		return fmt.Errorf("%w: hooks do not run for an advertisement", ErrInvalidArgument)
	}
	runOpts := []gitcmd.Option{gitcmd.Stdout(opts.Stdout), gitcmd.HooksPath(hooks.Dir)}
	if opts.Stdin != nil {
		runOpts = append(runOpts, gitcmd.Stdin(opts.Stdin))
	}
	if opts.GitProtocol != "" {
		if !validGitProtocol(opts.GitProtocol) {
			return fmt.Errorf("%w: git protocol %q", ErrInvalidArgument, opts.GitProtocol)
		}
		runOpts = append(runOpts, gitcmd.Env("GIT_PROTOCOL", opts.GitProtocol))
	}
	for k, v := range hooks.Env {
		runOpts = append(runOpts, gitcmd.HookEnv(k, v))
	}
	cmd := gitcmd.New("receive-pack", "--stateless-rpc").Arg(r.path)
	if err := r.c.runner.Run(ctx, "", cmd, runOpts...); err != nil {
		return fmt.Errorf("receive-pack: %w", err)
	}
	return nil
}

// validGitProtocol accepts the characters of Git-Protocol values ("version=2").
func validGitProtocol(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '=' || c == ':' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// quarantineEnv are the variables git gives a receive-pack hook to reach the objects of the
// push: new objects in a quarantine directory, the repository's own as an alternate.
var quarantineEnv = []string{"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH"}

// NewHookClient returns a client for a process git started as a receive-pack hook. Every command
// it runs gets the quarantine variables found in environ (the hook's os.Environ()), so checks
// such as IsAncestor see the commits being pushed; with GIT_QUARANTINE_PATH set git also refuses
// ref updates, as the quarantine requires. homeDir is the private HOME, as in Config.
func NewHookClient(ctx context.Context, homeDir string, environ []string) (*Client, error) {
	var env []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		for _, q := range quarantineEnv {
			if k == q {
				env = append(env, kv)
			}
		}
	}
	runner, err := gitcmd.NewRunner(ctx, gitcmd.Config{HomeDir: homeDir, Env: env})
	if err != nil {
		return nil, err
	}
	one := catfile.Options{MaxIdlePerRepo: 1, MaxIdle: 1}
	return &Client{runner: runner, cat: catfile.New(ctx, runner, one), diffs: difftree.New(ctx, runner, one), home: homeDir}, nil
}
