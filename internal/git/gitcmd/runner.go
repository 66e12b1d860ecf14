package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultTimeout limits a command when neither the runner's Config nor its description says
// otherwise.
const DefaultTimeout = time.Minute

// Config configures a Runner.
type Config struct {
	// Binary is the git executable; empty means "git" from PATH.
	Binary string
	// HomeDir is the private HOME of every git process. It must exist.
	HomeDir string
	// Timeout is the default time limit of one command; zero means DefaultTimeout.
	Timeout time.Duration
	// Env adds "KEY=value" variables to every command, with the names allowedEnv accepts. A
	// receive-pack hook sets its quarantine directories here (see hooks.go).
	Env []string
}

// Runner starts git processes. It is safe for concurrent use.
type Runner struct {
	binary  string
	home    string
	env     []string
	timeout time.Duration
	version Version
}

// NewRunner checks the git binary and its version.
func NewRunner(ctx context.Context, cfg Config) (*Runner, error) {
	bin := cfg.Binary
	if bin == "" {
		bin = "git"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("find git: %w", err)
	}
	if cfg.HomeDir == "" {
		return nil, errors.New("git home directory required")
	}
	if st, err := os.Stat(cfg.HomeDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("git home directory %q: not a directory", cfg.HomeDir)
	}
	r := &Runner{binary: path, home: cfg.HomeDir, env: baseEnv(cfg.HomeDir), timeout: cfg.Timeout}
	for _, kv := range cfg.Env {
		k, v, _ := strings.Cut(kv, "=")
		if err := checkEnv(k, v); err != nil {
			return nil, err
		}
		r.env = append(r.env, kv)
	}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	out, err := r.Output(ctx, "", New("version"))
	if err != nil {
		return nil, err
	}
	v, err := ParseVersion(string(out))
	if err != nil {
		return nil, err
	}
	r.version = v
	return r, nil
}

// Version is the version of the git binary.
func (r *Runner) Version() Version { return r.version }

// Option adjusts one command run.
type Option func(*options)

type options struct {
	stdin     io.Reader
	stdout    io.Writer
	env       []string
	hooksPath string
	err       error
	// ownOutput: stdout is Output's own buffer, which a second run may start afresh.
	ownOutput bool
}

// Stdin feeds r to the command's standard input.
func Stdin(r io.Reader) Option { return func(o *options) { o.stdin = r } }

// Stdout sends the command's standard output to w.
func Stdout(w io.Writer) Option { return func(o *options) { o.stdout = w } }

// Env adds one environment variable; only the names in allowedEnv are accepted.
func Env(key, value string) Option {
	return func(o *options) {
		if err := checkEnv(key, value); err != nil {
			if o.err == nil {
				o.err = err
			}
			return
		}
		o.env = append(o.env, key+"="+value)
	}
}

// Run runs c in repository repo ("" for commands that take none) and waits for it. Standard
// output goes to the Stdout option or is discarded; standard input is the Stdin option or empty.
func (r *Runner) Run(ctx context.Context, repo string, c *Cmd, opts ...Option) error {
	o := collect(opts)
	if o.stdout == nil {
		o.stdout = io.Discard
	}
	if o.stdin == nil {
		o.stdin = bytes.NewReader(nil)
	}
	for attempt := 0; ; attempt++ {
		p, err := r.start(ctx, repo, c, o)
		if err != nil {
			return err
		}
		err = p.Wait()
		if err == nil || attempt > 0 || !lostObjectDir(err) || !rewind(o) {
			return err
		}
	}
}

// lostObjectDir reports git's failure to create a loose object's temporary file because a
// concurrent repack (prune-packed) removed the empty objects/xx directory between git creating
// it and writing into it. Writing loose objects is idempotent, so the command runs once more.
func lostObjectDir(err error) bool {
	return strings.Contains(Stderr(err), "unable to create temporary file")
}

// rewind makes a command's input and output ready for a second run: standard input must seek
// back to its start, and standard output must be discarded or a buffer the failed run left empty.
func rewind(o *options) bool {
	if sk, ok := o.stdin.(io.Seeker); !ok {
		return false
	} else if _, err := sk.Seek(0, io.SeekStart); err != nil {
		return false
	}
	switch w := o.stdout.(type) {
	case *bytes.Buffer:
		// A command that wrote some objects before failing (hash-object --stdin-paths) printed
		// their ids already: Output's own buffer starts again, as the objects are written again.
		if o.ownOutput {
			w.Reset()
		}
		return w.Len() == 0
	default:
		return w == io.Discard
	}
}

// Output runs c and returns its standard output.
func (r *Runner) Output(ctx context.Context, repo string, c *Cmd, opts ...Option) ([]byte, error) {
	var buf bytes.Buffer
	err := r.Run(ctx, repo, c, append(opts, Stdout(&buf), func(o *options) { o.ownOutput = true })...)
	return buf.Bytes(), err
}

// Start starts c without waiting. Unless given as options, standard input and output are pipes
// (Process.Stdin, Process.Stdout). The caller must call Wait (or Kill then Wait).
func (r *Runner) Start(ctx context.Context, repo string, c *Cmd, opts ...Option) (*Process, error) {
	return r.start(ctx, repo, c, collect(opts))
}

func collect(opts []Option) *options {
	o := &options{}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

func (r *Runner) start(ctx context.Context, repo string, c *Cmd, o *options) (*Process, error) {
	if o.err != nil {
		return nil, fmt.Errorf("git %s: %w", c.name, o.err)
	}
	argv, d, err := c.argv(repo)
	if err != nil {
		return nil, err
	}
	if argv, err = withHooks(argv, c, o); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Command: string(c.name), ExitCode: -1, Err: err}
	}
	var cancel context.CancelFunc
	switch timeout := d.timeout; {
	case timeout < 0:
		ctx, cancel = context.WithCancel(ctx)
	case timeout == 0:
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
	default:
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	cmd := exec.CommandContext(ctx, r.binary, argv...)
	cmd.Env = append(append([]string(nil), r.env...), o.env...)
	cmd.Dir = r.home
	// A process group lets cancellation kill git's children too (pack-objects under
	// upload-pack), not only git itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// If a killed process leaves a child holding our pipes, Wait gives up after this delay.
	cmd.WaitDelay = 2 * time.Second
	p := &Process{cmd: cmd, ctx: ctx, cancel: cancel, name: string(c.name), stderr: &capped{max: 8 << 10}}
	cmd.Stderr = p.stderr
	if o.stdin != nil {
		cmd.Stdin = o.stdin
	} else if p.Stdin, err = cmd.StdinPipe(); err != nil {
		cancel()
		return nil, fmt.Errorf("git %s: %w", c.name, err)
	}
	if o.stdout != nil {
		cmd.Stdout = o.stdout
	} else if p.Stdout, err = cmd.StdoutPipe(); err != nil {
		cancel()
		return nil, fmt.Errorf("git %s: %w", c.name, err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("git %s: %w", c.name, err)
	}
	return p, nil
}

// Process is a started git command.
type Process struct {
	// Stdin is the command's standard input when no Stdin option was given; close it to signal
	// the end of input.
	Stdin io.WriteCloser
	// Stdout is the command's standard output when no Stdout option was given; read it to EOF
	// before Wait.
	Stdout io.ReadCloser

	cmd    *exec.Cmd
	ctx    context.Context
	cancel context.CancelFunc
	name   string
	stderr *capped
}

// Kill stops the process (and its children) at once.
func (p *Process) Kill() { p.cancel() }

// Wait waits for the process to exit and releases its resources. A non-zero exit, a killed
// process or an expired context returns an *Error.
func (p *Process) Wait() error {
	if p.Stdin != nil {
		_ = p.Stdin.Close()
	}
	err := p.cmd.Wait()
	ctxErr := p.ctx.Err()
	p.cancel()
	if err == nil {
		return nil
	}
	e := &Error{Command: p.name, ExitCode: -1, Stderr: p.stderr.String(), Err: err}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		e.ExitCode = exit.ExitCode()
	}
	if ctxErr != nil && e.ExitCode < 0 {
		// Killed because the deadline passed or the caller cancelled: say so, so that callers
		// can test errors.Is(err, context.DeadlineExceeded).
		e.Err = ctxErr
	}
	return e
}

// Error is a failed git command.
type Error struct {
	// Command is the subcommand, e.g. "rev-parse".
	Command string
	// ExitCode is the exit status, or -1 when the process was killed or did not start.
	ExitCode int
	// Stderr is the beginning of the process's standard error.
	Stderr string
	// Err is the underlying error: an *exec.ExitError, or the context's error when the
	// deadline passed or the caller cancelled.
	Err error
}

// Error is "git <subcommand>: <first lines of stderr>".
func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if lines := strings.Split(msg, "\n"); len(lines) > 3 {
		msg = strings.Join(lines[:3], "; ")
	} else {
		msg = strings.Join(lines, "; ")
	}
	if len(msg) > 512 {
		msg = msg[:512]
	}
	switch {
	case msg != "" && e.Err != nil && e.ExitCode < 0:
		return fmt.Sprintf("git %s: %v: %s", e.Command, e.Err, msg)
	case msg != "":
		return fmt.Sprintf("git %s: %s", e.Command, msg)
	case e.Err != nil:
		return fmt.Sprintf("git %s: %v", e.Command, e.Err)
	}
	return fmt.Sprintf("git %s: exit status %d", e.Command, e.ExitCode)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ExitCode returns the exit status of a failed git command in err's chain, or -1.
func ExitCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.ExitCode
	}
	return -1
}

// Stderr returns the standard error of a failed git command in err's chain.
func Stderr(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Stderr
	}
	return ""
}

// capped keeps the first max bytes written to it.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
		} else {
			c.buf.Write(p)
		}
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

// Version is a git version.
type Version struct{ Major, Minor, Patch int }

// ParseVersion reads the output of "git version", e.g. "git version 2.39.5".
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "git version "))
	parts := strings.SplitN(s, ".", 4)
	if len(parts) < 3 {
		return Version{}, fmt.Errorf("parse git version %q", s)
	}
	var n [3]int
	for i := range n {
		digits := parts[i]
		if j := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
			digits = digits[:j]
		}
		v, err := strconv.Atoi(digits)
		if err != nil {
			return Version{}, fmt.Errorf("parse git version %q", s)
		}
		n[i] = v
	}
	return Version{n[0], n[1], n[2]}, nil
}

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(o Version) bool {
	if v.Major != o.Major {
		return v.Major > o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor > o.Minor
	}
	return v.Patch >= o.Patch
}

// String renders "2.39.5".
func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }
