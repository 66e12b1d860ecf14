package gitcmd

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// hookEnvPrefix starts the names of the variables a caller may hand to hooks. Git passes its own
// environment on to the hooks it runs, so these reach them untouched; no git behaviour is
// controlled by a variable with this prefix.
const hookEnvPrefix = "ANVIL_HOOK"

// HooksPath makes receive-pack run the hooks in dir (pre-receive, post-receive, ...) instead of
// none (globalConfig points core.hooksPath at /dev/null). Only Anvil's own hook binary lives
// there, so this does not let repository content run code. dir must be absolute; the option is
// refused for any other subcommand.
func HooksPath(dir string) Option {
	return func(o *options) {
		if !filepath.IsAbs(dir) || strings.ContainsAny(dir, "\x00\n") {
			if o.err == nil {
				o.err = fmt.Errorf("%w: hooks path %q", ErrInvalidArgument, dir)
			}
			return
		}
		o.hooksPath = dir
	}
}

// HookEnv adds a variable for the hooks a command runs; its name must start with "ANVIL_HOOK"
// and its value may hold neither NUL nor a newline.
func HookEnv(key, value string) Option {
	return func(o *options) {
		if !strings.HasPrefix(key, hookEnvPrefix) || strings.ContainsAny(key, "=\x00\n") ||
			strings.ContainsAny(value, "\x00\n") {
			if o.err == nil {
				o.err = fmt.Errorf("%w: hook environment variable %q", ErrInvalidArgument, key)
			}
			return
		}
		o.env = append(o.env, key+"="+value)
	}
}

// withHooks inserts "-c core.hooksPath=<dir>" just before the subcommand, after the global
// /dev/null setting, so that it wins (the last -c of a key does).
func withHooks(argv []string, c *Cmd, o *options) ([]string, error) {
	if o.hooksPath == "" {
		return argv, nil
	}
	if c.name != "receive-pack" {
		return nil, fmt.Errorf("git %s: %w: hooks only run for receive-pack", c.name, ErrInvalidArgument)
	}
	i := slices.Index(argv, string(c.name))
	if i < 0 {
		return nil, fmt.Errorf("git %s: %w: subcommand not found in arguments", c.name, ErrInvalidArgument)
	}
	return slices.Insert(argv, i, "-c", "core.hooksPath="+o.hooksPath), nil
}
