// Package git is Anvil's git layer: typed operations on bare repositories, built on the git CLI
// through package gitcmd (the only code that starts git) and on long-lived cat-file processes
// (package catfile). Services call these operations; they never run git themselves.
//
// One Client serves the whole process. Client.Repository binds it to a repository path (the
// path comes from package storage); Repository methods take a context, validate user input
// (revisions, ref names, paths) before any process starts, and return the typed errors of
// errors.go wrapped with context.
package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"anvil/internal/git/catfile"
	"anvil/internal/git/difftree"
	"anvil/internal/git/gitcmd"
)

// MinimumVersion is the oldest git Anvil runs with: merge-tree --write-tree appeared in 2.38.
var MinimumVersion = gitcmd.Version{Major: 2, Minor: 38}

// mergeBaseVersion is the first git whose merge-tree takes --merge-base (used by cherry-pick and
// revert; older versions go through synthetic commits).
var mergeBaseVersion = gitcmd.Version{Major: 2, Minor: 40}

// Config configures a Client. Zero fields take defaults.
type Config struct {
	// Binary is the git executable (default "git" from PATH).
	Binary string
	// HomeDir is the private HOME of git processes. Default: a new temporary directory, removed
	// by Close.
	HomeDir string
	// Timeout is the default time limit of one git command (default one minute). Archives and
	// pack transfers have longer limits; the caller's context always applies too.
	Timeout time.Duration
	// Catfile sizes the cache of cat-file processes.
	Catfile catfile.Options
	// Bzip2 is the bzip2 executable used for tar.bz2 archives (default "bzip2" from PATH; when
	// absent, that format returns ErrUnsupported).
	Bzip2 string
}

// Client runs git for every repository of the process. It is safe for concurrent use.
type Client struct {
	runner  *gitcmd.Runner
	cat     *catfile.Cache
	diffs   *difftree.Cache
	home    string
	ownHome bool
	bzip2   string
}

// New checks the git binary (at least MinimumVersion) and starts the cat-file cache, which
// lives until ctx ends or Close is called.
func New(ctx context.Context, cfg Config) (*Client, error) {
	c := &Client{home: cfg.HomeDir}
	if c.home == "" {
		dir, err := os.MkdirTemp("", "anvil-git-home-")
		if err != nil {
			return nil, fmt.Errorf("create git home: %w", err)
		}
		c.home, c.ownHome = dir, true
	}
	runner, err := gitcmd.NewRunner(ctx, gitcmd.Config{Binary: cfg.Binary, HomeDir: c.home, Timeout: cfg.Timeout})
	if err != nil {
		c.removeHome()
		return nil, err
	}
	if !runner.Version().AtLeast(MinimumVersion) {
		c.removeHome()
		return nil, fmt.Errorf("git %s is too old: %w (need %s)", runner.Version(), ErrUnsupported, MinimumVersion)
	}
	c.runner = runner
	bz := cfg.Bzip2
	if bz == "" {
		bz = "bzip2"
	}
	if p, err := exec.LookPath(bz); err == nil {
		c.bzip2 = p
	}
	c.cat = catfile.New(ctx, runner, cfg.Catfile)
	c.diffs = difftree.New(ctx, runner, cfg.Catfile)
	return c, nil
}

// Close stops the cat-file and diff-tree processes and removes the private HOME if New created it.
func (c *Client) Close() error {
	c.cat.Close()
	c.diffs.Close()
	return c.removeHome()
}

func (c *Client) removeHome() error {
	if c.ownHome {
		return os.RemoveAll(c.home)
	}
	return nil
}

// Version is the git version in use.
func (c *Client) Version() gitcmd.Version { return c.runner.Version() }

// Runner exposes the command runner to the other packages of the git layer (storage, gittest).
func (c *Client) Runner() *gitcmd.Runner { return c.runner }

// Repository returns the repository at path (a bare repository directory). It does not check
// that the repository exists; operations on a missing one fail.
func (c *Client) Repository(path string) *Repository {
	return &Repository{c: c, path: path}
}

// Evict stops the cached cat-file and diff-tree processes of the repository at path. Storage
// calls it when a repository is removed or replaced on disk.
func (c *Client) Evict(path string) {
	c.cat.Evict(path)
	c.diffs.Evict(path)
}

// InitBare creates a bare repository at path (which must not exist or be empty) whose HEAD
// names defaultBranch.
func (c *Client) InitBare(ctx context.Context, path, defaultBranch string) error {
	if err := ValidateBranchName(defaultBranch); err != nil {
		return err
	}
	cmd := gitcmd.New("init", "--bare", "--quiet").Option("--initial-branch", defaultBranch).Arg(path)
	if err := c.runner.Run(ctx, "", cmd); err != nil {
		return fmt.Errorf("init repository: %w", err)
	}
	return nil
}

// Repository is one bare repository. It is a cheap value: create one per use.
type Repository struct {
	c    *Client
	path string
}

// Path is the repository's directory.
func (r *Repository) Path() string { return r.path }

// output runs a command in the repository and returns its standard output.
func (r *Repository) output(ctx context.Context, cmd *gitcmd.Cmd, opts ...gitcmd.Option) ([]byte, error) {
	out, err := r.c.runner.Output(ctx, r.path, cmd, opts...)
	return out, r.missing(err)
}

// run runs a command in the repository.
func (r *Repository) run(ctx context.Context, cmd *gitcmd.Cmd, opts ...gitcmd.Option) error {
	return r.missing(r.c.runner.Run(ctx, r.path, cmd, opts...))
}

// missing marks the failure of a command run on a directory that is not a repository.
func (r *Repository) missing(err error) error {
	if err != nil && stderrHas(err, "not a git repository", "does not appear to be a git repository") {
		return fmt.Errorf("%w: %w", ErrRepositoryNotFound, err)
	}
	return err
}

// batch runs fn with a cat-file process of the repository.
func (r *Repository) batch(ctx context.Context, fn func(*catfile.Batch) error) error {
	err := r.c.cat.Do(ctx, r.path, fn)
	if err != nil && !errors.Is(err, catfile.ErrNotFound) && !errors.Is(err, catfile.ErrAmbiguous) &&
		ctx.Err() == nil && !r.Exists() {
		return fmt.Errorf("%w: %s", ErrRepositoryNotFound, r.path)
	}
	return err
}

// Exists reports whether the repository directory looks like a git repository.
func (r *Repository) Exists() bool {
	st, err := os.Stat(r.path + "/objects")
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = os.Stat(r.path + "/HEAD")
	return err == nil
}

// catErr maps a catfile error to the package's errors.
func catErr(err error, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catfile.ErrNotFound), errors.Is(err, catfile.ErrAmbiguous):
		return fmt.Errorf("%s: %w", what, ErrObjectNotFound)
	case errors.Is(err, catfile.ErrInvalidName):
		return fmt.Errorf("%s: %w", what, ErrInvalidRevision)
	}
	return fmt.Errorf("%s: %w", what, err)
}
