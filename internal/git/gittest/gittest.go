// Package gittest builds git repositories for tests at run time from a declarative Spec, with
// pinned identities and dates so that object ids are the same on every run. No fixture
// repository is checked in.
//
//	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{
//		{Label: "init", Files: map[string]string{"README.md": "hello\n"}},
//		{Label: "feature", Branch: "feature", Files: map[string]string{"a.go": "package a\n"}},
//	}, Tags: []gittest.TagSpec{{Name: "v1.0", Target: "init", Message: "Release"}}})
//	id := repo.Commit("feature")
package gittest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"anvil/internal/git"
	"anvil/internal/git/storage"
)

// Pinned identities and dates. Commit i of a Spec (0-based) is authored and committed at
// Epoch plus i minutes, by Author and Committer.
var (
	Epoch     = time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", 2*3600))
	Author    = git.Signature{Name: "Jane Doe", Email: "jane@example.com"}
	Committer = git.Signature{Name: "John Roe", Email: "john@example.com"}
)

// DefaultBranch is the default branch of repositories made here.
const DefaultBranch = "main"

// NewClient returns a git client closed when the test ends.
func NewClient(tb testing.TB) *git.Client {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := git.New(ctx, git.Config{HomeDir: tb.TempDir()})
	if err != nil {
		cancel()
		tb.Fatalf("git client: %v", err)
	}
	tb.Cleanup(func() {
		cancel()
		_ = c.Close()
	})
	return c
}

// NewStorage returns a storage with one root "default" (weight 100) in a temporary directory.
func NewStorage(tb testing.TB, client *git.Client) *storage.Storage {
	tb.Helper()
	s, err := storage.New(client, storage.Config{
		Roots:   map[string]string{"default": filepath.Join(tb.TempDir(), "repositories")},
		Weights: map[string]int{"default": 100},
	})
	if err != nil {
		tb.Fatalf("storage: %v", err)
	}
	return s
}

// Spec describes a repository.
type Spec struct {
	// DefaultBranch names HEAD (default "main").
	DefaultBranch string
	// Commits are written in order.
	Commits []CommitSpec
	// Branches adds branches pointing at commit labels.
	Branches map[string]string
	// Tags adds tags.
	Tags []TagSpec
}

// CommitSpec describes one commit.
type CommitSpec struct {
	// Label names the commit for Repo.Commit and is its default message.
	Label string
	// Branch is moved to the commit (default: the default branch).
	Branch string
	// Parents are labels of earlier commits; nil means the tip of Branch (no parent when the
	// branch does not exist yet). Orphan forces a root commit.
	Parents []string
	Orphan  bool
	// Files creates or updates files (path → content) in the first parent's tree.
	Files map[string]string
	// Delete removes files.
	Delete []string
	// Actions are applied after Files and Delete.
	Actions []git.TreeAction
	// Message defaults to Label + "\n".
	Message string
	// Author and Committer default to the package's, dated Epoch + index minutes.
	Author, Committer *git.Signature
}

// TagSpec describes a tag.
type TagSpec struct {
	Name string
	// Target is a commit label.
	Target string
	// Message makes an annotated tag (tagged by Committer at Epoch); "" a lightweight one.
	Message string
}

// Repo is a repository built for a test.
type Repo struct {
	*git.Repository
	Client *git.Client
	tb     testing.TB
	spec   Spec
	ids    map[string]git.ObjectID
	n      int
}

// NewRepo builds spec in a temporary directory with a new client.
func NewRepo(tb testing.TB, spec Spec) *Repo {
	tb.Helper()
	return NewRepoWith(tb, NewClient(tb), spec)
}

// NewRepoWith builds spec in a temporary directory with client.
func NewRepoWith(tb testing.TB, client *git.Client, spec Spec) *Repo {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "repo.git")
	return Build(tb, client, path, spec)
}

// Build writes spec into a new bare repository at path.
func Build(tb testing.TB, client *git.Client, path string, spec Spec) *Repo {
	tb.Helper()
	if spec.DefaultBranch == "" {
		spec.DefaultBranch = DefaultBranch
	}
	ctx := context.Background()
	if err := client.InitBare(ctx, path, spec.DefaultBranch); err != nil {
		tb.Fatalf("init: %v", err)
	}
	r := &Repo{Repository: client.Repository(path), Client: client, tb: tb, spec: spec, ids: map[string]git.ObjectID{}}
	for _, c := range spec.Commits {
		r.AddCommit(c)
	}
	names := make([]string, 0, len(spec.Branches))
	for name := range spec.Branches {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := r.UpdateRef(ctx, git.BranchRef(name), r.Commit(spec.Branches[name]), ""); err != nil {
			tb.Fatalf("branch %q: %v", name, err)
		}
	}
	for _, t := range spec.Tags {
		r.AddTag(t)
	}
	return r
}

// Commit returns the id of the commit labelled label.
func (r *Repo) Commit(label string) git.ObjectID {
	r.tb.Helper()
	id, ok := r.ids[label]
	if !ok {
		r.tb.Fatalf("gittest: no commit labelled %q", label)
	}
	return id
}

// AddCommit writes one more commit and returns its id.
func (r *Repo) AddCommit(c CommitSpec) git.ObjectID {
	r.tb.Helper()
	ctx := context.Background()
	branch := c.Branch
	if branch == "" {
		branch = r.spec.DefaultBranch
	}
	var parents []git.ObjectID
	switch {
	case c.Orphan:
	case c.Parents == nil:
		if tip, err := r.ResolveCommit(ctx, git.BranchRef(branch)); err == nil {
			parents = []git.ObjectID{tip}
		} else if !errors.Is(err, git.ErrReferenceNotFound) {
			r.tb.Fatalf("commit %q: %v", c.Label, err)
		}
	default:
		for _, p := range c.Parents {
			parents = append(parents, r.Commit(p))
		}
	}
	base := ""
	if len(parents) > 0 {
		base = string(parents[0])
	}
	var actions []git.TreeAction
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		kind := git.ActionCreate
		if base != "" {
			if e, err := r.TreeEntryAt(ctx, base, p); err == nil && e.Type == git.TypeBlob {
				kind = git.ActionUpdate
			}
		}
		actions = append(actions, git.TreeAction{Action: kind, Path: p, Content: []byte(c.Files[p])})
	}
	for _, p := range c.Delete {
		actions = append(actions, git.TreeAction{Action: git.ActionDelete, Path: p})
	}
	actions = append(actions, c.Actions...)
	tree, err := r.EditTree(ctx, base, actions)
	if err != nil {
		r.tb.Fatalf("commit %q: tree: %v", c.Label, err)
	}
	when := Epoch.Add(time.Duration(r.n) * time.Minute)
	r.n++
	author, committer := Author, Committer
	if c.Author != nil {
		author = *c.Author
	}
	if c.Committer != nil {
		committer = *c.Committer
	}
	if author.When.IsZero() {
		author.When = when
	}
	if committer.When.IsZero() {
		committer.When = when
	}
	msg := c.Message
	if msg == "" {
		msg = c.Label + "\n"
	}
	id, err := r.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: parents, Message: msg, Author: author, Committer: committer})
	if err != nil {
		r.tb.Fatalf("commit %q: %v", c.Label, err)
	}
	if err := r.UpdateRef(ctx, git.BranchRef(branch), id, ""); err != nil {
		r.tb.Fatalf("commit %q: branch %q: %v", c.Label, branch, err)
	}
	if c.Label != "" {
		r.ids[c.Label] = id
	}
	return id
}

// AddTag creates a tag.
func (r *Repo) AddTag(t TagSpec) git.ObjectID {
	r.tb.Helper()
	tagger := Committer
	tagger.When = Epoch
	id, err := r.CreateTag(context.Background(), git.CreateTagOptions{Name: t.Name, Target: r.Commit(t.Target), Message: t.Message, Tagger: tagger})
	if err != nil {
		r.tb.Fatalf("tag %q: %v", t.Name, err)
	}
	return id
}

var (
	gitBinOnce sync.Once
	gitBin     string
)

// Git runs the git CLI directly in repo (outside the allowlist: for assertions and set-ups the
// layer does not offer, in tests only) with a pinned environment and returns its standard
// output; a failure fails the test.
func Git(tb testing.TB, repo string, stdin []byte, args ...string) string {
	tb.Helper()
	out, err := GitErr(repo, stdin, args...)
	if err != nil {
		tb.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// GitErr is Git returning the error (with stderr) instead of failing.
func GitErr(repo string, stdin []byte, args ...string) (string, error) {
	gitBinOnce.Do(func() {
		gitBin, _ = exec.LookPath("git")
	})
	if repo != "" {
		args = append([]string{"--git-dir=" + repo}, args...)
	}
	cmd := exec.Command(gitBin, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C", "TZ=UTC",
		"GIT_AUTHOR_NAME=" + Author.Name, "GIT_AUTHOR_EMAIL=" + Author.Email,
		"GIT_COMMITTER_NAME=" + Committer.Name, "GIT_COMMITTER_EMAIL=" + Committer.Email,
		"GIT_AUTHOR_DATE=@1700000000 +0000", "GIT_COMMITTER_DATE=@1700000000 +0000",
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), errors.New(err.Error() + ": " + strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
