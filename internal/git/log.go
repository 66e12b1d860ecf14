package git

import (
	"anvil/internal/git/difftree"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"anvil/internal/git/gitcmd"
)

// LogOrder is the order of a commit listing.
type LogOrder string

// Commit orders (GitLab's order parameter).
const (
	// OrderDefault is git's default: reverse chronological by walk.
	OrderDefault LogOrder = ""
	// OrderTopo shows no parent before all its children (--topo-order).
	OrderTopo LogOrder = "topo"
)

// LogOptions filter and page a commit listing. Zero fields do not filter.
type LogOptions struct {
	// Revisions are what to list: a ref or id ("main"), a range ("a..b", "a...b"), exclusions
	// ("^a"). None means HEAD, unless All.
	Revisions []string
	// All lists commits reachable from any ref.
	All bool
	// Since and Until bound the committer date, inclusively.
	Since, Until time.Time
	// Author keeps commits whose author name or email matches this regular expression.
	Author string
	// Paths keep commits touching one of these paths.
	Paths []string
	// FirstParent follows only the first parent of merges.
	FirstParent bool
	// NoMerges drops merge commits.
	NoMerges bool
	// Order is OrderDefault or OrderTopo.
	Order LogOrder
	// Skip and Limit page the listing (Limit 0 means no limit).
	Skip, Limit int
	// WithStats fills Commit.Stats (lines added and deleted; merges are compared with their
	// first parent, renames detected).
	WithStats bool
}

// CommitStats counts a commit's changes.
type CommitStats struct {
	Additions int
	Deletions int
	// Files is the number of files changed.
	Files int
}

// Total is Additions + Deletions (GitLab's stats.total).
func (s CommitStats) Total() int { return s.Additions + s.Deletions }

// logArgs builds the filter part shared by log and rev-list.
func logArgs(cmd *gitcmd.Cmd, opts LogOptions) error {
	if opts.All {
		cmd.Flag("--all")
	}
	if !opts.Since.IsZero() {
		cmd.Option("--since", opts.Since.Format(time.RFC3339))
	}
	if !opts.Until.IsZero() {
		cmd.Option("--until", opts.Until.Format(time.RFC3339))
	}
	if opts.Author != "" {
		if strings.ContainsAny(opts.Author, "\n\x00") {
			return fmt.Errorf("%w: author filter", ErrInvalidArgument)
		}
		cmd.Option("--author", opts.Author)
	}
	if opts.FirstParent {
		cmd.Flag("--first-parent")
	}
	if opts.NoMerges {
		cmd.Flag("--no-merges")
	}
	switch opts.Order {
	case OrderDefault:
	case OrderTopo:
		cmd.Flag("--topo-order")
	default:
		return fmt.Errorf("%w: order %q", ErrInvalidArgument, opts.Order)
	}
	for _, rev := range opts.Revisions {
		if err := ValidateRevision(rev); err != nil {
			return err
		}
	}
	revs := opts.Revisions
	if len(revs) == 0 && !opts.All {
		revs = []string{"HEAD"}
	}
	cmd.Arg(revs...)
	paths := make([]string, 0, len(opts.Paths))
	for _, p := range opts.Paths {
		p, err := CleanPath(p)
		if err != nil {
			return err
		}
		if p != "" {
			paths = append(paths, p)
		}
	}
	cmd.Paths(paths...)
	return nil
}

// revisionErr maps a log or rev-list failure on unknown revisions.
func revisionErr(err error, what string) error {
	if stderrHas(err, "bad revision", "unknown revision", "ambiguous argument", "bad object") {
		return fmt.Errorf("%s: %w: %w", what, ErrReferenceNotFound, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Log lists commits, newest first (or in topological order), read through the cat-file
// process after git log picks their ids; a small page of one branch, tag or commit is walked
// through the cat-file process alone (logwalk.go).
func (r *Repository) Log(ctx context.Context, opts LogOptions) ([]*Commit, error) {
	if opts.Skip < 0 || opts.Limit < 0 {
		return nil, fmt.Errorf("%w: negative skip or limit", ErrInvalidArgument)
	}
	if commits, handled, err := r.logInProcess(ctx, opts); handled {
		return commits, err
	}
	cmd := gitcmd.New("log", "--format=tformat:%H", "--no-color")
	if opts.Skip > 0 {
		cmd.Option("--skip", strconv.Itoa(opts.Skip))
	}
	if opts.Limit > 0 {
		cmd.Option("--max-count", strconv.Itoa(opts.Limit))
	}
	if opts.WithStats {
		cmd.Flag("--numstat", "--diff-merges=first-parent", "-M", "--no-ext-diff", "--no-textconv")
	}
	if err := logArgs(cmd, opts); err != nil {
		return nil, err
	}
	out, err := r.output(ctx, cmd)
	if err != nil {
		return nil, revisionErr(err, "log")
	}
	ids, stats, err := parseLogOutput(out)
	if err != nil {
		return nil, err
	}
	commits, err := r.ReadCommits(ctx, ids)
	if err != nil {
		return nil, err
	}
	if opts.WithStats {
		for i, c := range commits {
			s := stats[i]
			c.Stats = &s
		}
	}
	return commits, nil
}

// parseLogOutput reads commit ids, each followed by its --numstat lines when present.
func parseLogOutput(out []byte) ([]ObjectID, []CommitStats, error) {
	var ids []ObjectID
	var stats []CommitStats
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if IsFullObjectID(line) {
			ids = append(ids, ObjectID(line))
			stats = append(stats, CommitStats{})
			continue
		}
		add, rest, ok1 := strings.Cut(line, "\t")
		del, _, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 || len(stats) == 0 {
			return nil, nil, fmt.Errorf("log: unexpected line %q", line)
		}
		s := &stats[len(stats)-1]
		s.Files++
		if a, err := strconv.Atoi(add); err == nil {
			s.Additions += a
		}
		if d, err := strconv.Atoi(del); err == nil {
			s.Deletions += d
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("log: %w", err)
	}
	return ids, stats, nil
}

// CountCommits counts the commits Log would list with the same filters, ignoring Skip, Limit
// and WithStats (rev-list --count).
func (r *Repository) CountCommits(ctx context.Context, opts LogOptions) (int, error) {
	cmd := gitcmd.New("rev-list", "--count")
	if err := logArgs(cmd, opts); err != nil {
		return 0, err
	}
	out, err := r.output(ctx, cmd)
	if err != nil {
		return 0, revisionErr(err, "count commits")
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("count commits: %q", out)
	}
	return n, nil
}

// LastCommitForPath returns the newest commit reachable from rev that touched path (GitLab's
// last_commit_id of a file). A path never touched fails with ErrPathNotFound.
func (r *Repository) LastCommitForPath(ctx context.Context, rev, path string) (*Commit, error) {
	p, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	if p == "" {
		return r.ReadCommit(ctx, rev)
	}
	commits, err := r.Log(ctx, LogOptions{Revisions: []string{rev}, Paths: []string{p}, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(commits) == 0 {
		return nil, fmt.Errorf("last commit for %q: %w", path, ErrPathNotFound)
	}
	return commits[0], nil
}

// CommitStats counts the changes of commit id against its first parent (or the empty tree for
// a root commit), detecting renames, as Log's WithStats does.
func (r *Repository) CommitStats(ctx context.Context, id ObjectID) (CommitStats, error) {
	c, err := r.ReadCommit(ctx, string(id))
	if err != nil {
		return CommitStats{}, err
	}
	return r.CommitStatsOf(ctx, c)
}

// CommitStatsOf is CommitStats for a commit already read.
func (r *Repository) CommitStatsOf(ctx context.Context, c *Commit) (CommitStats, error) {
	var st difftree.Stats
	err := r.c.diffs.Do(ctx, r.path, func(b *difftree.Batch) error {
		var err error
		st, err = b.Stats(ctx, string(c.ID))
		return err
	})
	if err != nil {
		return CommitStats{}, err
	}
	return CommitStats{Files: st.Files, Additions: st.Additions, Deletions: st.Deletions}, nil
}
