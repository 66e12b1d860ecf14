// Package gitcmd runs the git CLI safely. It is the only code in Anvil that starts a git
// process; everything else goes through the typed operations of package git built on it.
//
// Safety rests on four rules enforced here rather than at call sites:
//   - subcommands come from an allowlist (descriptions.go) that also carries each command's
//     hardening configuration and time limit;
//   - options are compile-time constants: the unexported flag type only accepts untyped string
//     constants, so a value computed at run time cannot become an option;
//   - run-time values are either attached to an option (--name=value, one argv element that git
//     never reads as another option), positional arguments that may not start with "-" and come
//     after --end-of-options where the command supports it, or paths after "--";
//   - the environment is built from scratch (env.go), never inherited, and no shell is involved.
package gitcmd

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// flag is a git option such as "--no-color" or "--format=%H". Being unexported, it can only be
// written as an untyped string constant outside this package: a string variable does not convert.
type flag string

// subcommand is a git subcommand name; like flag it only accepts constants.
type subcommand string

// ErrInvalidArgument reports a run-time value refused before any process starts.
var ErrInvalidArgument = errors.New("invalid git argument")

// Cmd describes one git invocation. Build it with New and the chained methods; the first
// validation error is kept and returned when the command runs.
type Cmd struct {
	name   subcommand
	action subcommand // the action word of commands that take one ("commit-graph write")
	flags  []string
	args   []string
	paths  []string
	dash   bool // "--" is written even without paths
	err    error
}

// New starts a command for the subcommand name with constant flags.
func New(name subcommand, flags ...flag) *Cmd {
	c := &Cmd{name: name}
	return c.Flag(flags...)
}

// Name is the subcommand.
func (c *Cmd) Name() string { return string(c.name) }

// Action sets the action word some subcommands take before their options ("write" of
// "git commit-graph write"); the description of the subcommand lists the allowed ones.
func (c *Cmd) Action(a subcommand) *Cmd {
	c.action = a
	return c
}

// Flag appends constant options.
func (c *Cmd) Flag(flags ...flag) *Cmd {
	for _, f := range flags {
		if !strings.HasPrefix(string(f), "-") || f == "--" || f == "--end-of-options" {
			c.fail(fmt.Errorf("%w: flag %q", ErrInvalidArgument, f))
			continue
		}
		c.flags = append(c.flags, string(f))
	}
	return c
}

// Option appends an option with a run-time value, attached so that git reads it as the value
// whatever it contains: "--name=value" for long options, "-nvalue" for short ones.
func (c *Cmd) Option(name flag, value string) *Cmd {
	n := string(name)
	switch {
	case !strings.HasPrefix(n, "-") || strings.HasSuffix(n, "=") || n == "--" || n == "-":
		c.fail(fmt.Errorf("%w: option %q", ErrInvalidArgument, n))
	case strings.ContainsRune(value, 0):
		c.fail(fmt.Errorf("%w: option %s value contains NUL", ErrInvalidArgument, n))
	case strings.HasPrefix(n, "--"):
		c.flags = append(c.flags, n+"="+value)
	default:
		if len(n) != 2 {
			c.fail(fmt.Errorf("%w: short option %q", ErrInvalidArgument, n))
			return c
		}
		c.flags = append(c.flags, n+value)
	}
	return c
}

// Arg appends positional arguments (revisions, object ids, ref names). They may not be empty,
// start with "-" or contain NUL, so git can never read one as an option even where it does not
// support --end-of-options.
func (c *Cmd) Arg(args ...string) *Cmd {
	for _, a := range args {
		if err := CheckArg(a); err != nil {
			c.fail(err)
			continue
		}
		c.args = append(c.args, a)
	}
	return c
}

// Paths appends paths after "--", where git treats everything as a path. Pathspec magic is
// disabled for every command (GIT_LITERAL_PATHSPECS), so ":(exclude)x" is just a file name.
func (c *Cmd) Paths(paths ...string) *Cmd {
	c.dash = true
	for _, p := range paths {
		if p == "" || strings.ContainsRune(p, 0) {
			c.fail(fmt.Errorf("%w: path %q", ErrInvalidArgument, p))
			continue
		}
		c.paths = append(c.paths, p)
	}
	return c
}

// CheckArg reports whether s is acceptable as a positional argument.
func CheckArg(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%w: empty argument", ErrInvalidArgument)
	case strings.HasPrefix(s, "-"):
		return fmt.Errorf("%w: argument %q starts with a dash", ErrInvalidArgument, s)
	case strings.ContainsRune(s, 0):
		return fmt.Errorf("%w: argument contains NUL", ErrInvalidArgument)
	}
	return nil
}

func (c *Cmd) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// argv returns the arguments after "git" for repository repo ("" for commands that take none).
func (c *Cmd) argv(repo string) ([]string, *description, error) {
	if c.err != nil {
		return nil, nil, fmt.Errorf("git %s: %w", c.name, c.err)
	}
	d, ok := descriptions[string(c.name)]
	if !ok {
		return nil, nil, fmt.Errorf("git %s: %w: subcommand not allowed", c.name, ErrInvalidArgument)
	}
	var argv []string
	if d.noRepo {
		if repo != "" {
			return nil, nil, fmt.Errorf("git %s: %w: takes no repository", c.name, ErrInvalidArgument)
		}
	} else {
		if repo == "" || strings.ContainsRune(repo, 0) {
			return nil, nil, fmt.Errorf("git %s: %w: repository path required", c.name, ErrInvalidArgument)
		}
		argv = append(argv, "--git-dir="+repo)
	}
	for _, kv := range globalConfig {
		argv = append(argv, "-c", kv.key+"="+kv.value)
	}
	for _, kv := range d.config {
		argv = append(argv, "-c", kv.key+"="+kv.value)
	}
	if d.writes {
		for _, kv := range writeConfig {
			argv = append(argv, "-c", kv.key+"="+kv.value)
		}
	}
	argv = append(argv, string(c.name))
	if c.action != "" || len(d.actions) > 0 {
		if !slices.Contains(d.actions, string(c.action)) {
			return nil, nil, fmt.Errorf("git %s: %w: action %q not allowed", c.name, ErrInvalidArgument, c.action)
		}
		argv = append(argv, string(c.action))
	}
	argv = append(argv, c.flags...)
	if d.pathsAsArgs {
		if len(c.args) > 0 || len(c.paths) > 0 {
			argv = append(argv, "--end-of-options")
		}
		argv = append(argv, c.args...)
		return append(argv, c.paths...), &d, nil
	}
	if len(c.args) > 0 {
		if d.endOfOptions {
			argv = append(argv, "--end-of-options")
		}
		argv = append(argv, c.args...)
	}
	if c.dash {
		argv = append(argv, "--")
		argv = append(argv, c.paths...)
	}
	return argv, &d, nil
}

// String renders the command for logs and errors: subcommand, flags and arguments (never the
// configuration or environment).
func (c *Cmd) String() string {
	parts := []string{"git", string(c.name)}
	if c.action != "" {
		parts = append(parts, string(c.action))
	}
	parts = append(parts, c.flags...)
	parts = append(parts, c.args...)
	if c.dash {
		parts = append(parts, "--")
		parts = append(parts, c.paths...)
	}
	return strings.Join(parts, " ")
}
