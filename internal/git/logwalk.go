package git

import (
	"bytes"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"anvil/internal/git/catfile"
)

// maxWalkedCommits bounds Skip+Limit for the in-process walk. Reading ahead, the walk spends
// about what git log spends per commit but saves its process start; on the 20,000-commit
// benchmark repository it stayed faster up to about 3,000 commits. Deeper pages go to git log.
const maxWalkedCommits = 1000

// errNotWalkable stops the in-process walk at a commit it cannot order as git would.
var errNotWalkable = errors.New("history not walkable in process")

// walkRevision returns the revision to walk when opts asks for git log's default listing of
// one plain ref or object id, a page small enough to walk in process; ok is false for anything
// else (ranges, exclusions, filters, topological order, stats, unbounded or deep pages).
func walkRevision(opts LogOptions) (rev string, ok bool) {
	if opts.All || len(opts.Paths) > 0 || opts.Author != "" || !opts.Since.IsZero() || !opts.Until.IsZero() ||
		opts.Order != OrderDefault || opts.WithStats || opts.Limit <= 0 ||
		opts.Skip > maxWalkedCommits || opts.Limit > maxWalkedCommits-opts.Skip {
		return "", false
	}
	switch len(opts.Revisions) {
	case 0:
		rev = "HEAD"
	case 1:
		rev = opts.Revisions[0]
	default:
		return "", false
	}
	return rev, isPlainRevision(rev)
}

// isPlainRevision reports whether rev can only be a ref name or an object id: nothing git's
// revision syntax reads as an operator (ranges, "^" and "~", ":path", "@{…}", globs).
func isPlainRevision(rev string) bool {
	if ValidateRevision(rev) != nil || strings.Contains(rev, "..") {
		return false
	}
	return !strings.ContainsAny(rev, " ~^:?*[\\{}")
}

// rewritesParents reports whether git log would see other parents than the commits store:
// a shallow repository ends history at its shallow commits, info/grafts replaces parents.
// Replace refs need no check: every git process, log and cat-file alike, runs with
// GIT_NO_REPLACE_OBJECTS.
func (r *Repository) rewritesParents() bool {
	for _, name := range []string{"shallow", filepath.Join("info", "grafts")} {
		if _, err := os.Lstat(filepath.Join(r.path, name)); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// logInProcess answers Log for git log's default listing of one plain ref or object id and a
// small page by walking the history through the cat-file process, which saves starting git
// log. handled is false when git log must answer: other options, a shallow or grafted
// repository, a revision that does not name a commit, or a commit the walk cannot read, so
// that every error stays the one git log gives.
func (r *Repository) logInProcess(ctx context.Context, opts LogOptions) (commits []*Commit, handled bool, err error) {
	rev, ok := walkRevision(opts)
	if !ok || r.rewritesParents() {
		return nil, false, nil
	}
	err = r.batch(ctx, func(b *catfile.Batch) (err error) {
		commits, err = newLogWalk(ctx, b, opts).run(rev)
		return err
	})
	switch {
	case err == nil:
		return commits, true, nil
	case ctx.Err() != nil:
		return nil, true, fmt.Errorf("log: %w", err)
	}
	return nil, false, nil
}

// How far the walk reads ahead along first parents ("<id>~1", "<id>~2"… in the same cat-file
// request) when it reaches a commit it has not read: far along a first parent, since a linear
// stretch is the common case, and a little along another parent, whose branch usually joins
// commits already read after a few steps. cat-file steps through n parents for "<id>~n", so a
// request costs it the square of its length; on the benchmark repository 32 to 128 read the
// deepest walked page fastest, and 1 (no read-ahead) was five times slower.
const (
	firstParentReadAhead = 32
	otherParentReadAhead = 4
)

// logWalk is the state of one walk.
type logWalk struct {
	ctx   context.Context
	b     *catfile.Batch
	opts  LogOptions
	queue dateQueue
	seen  map[ObjectID]bool
	seq   uint64
	// readAhead holds commits read before the walk reached them.
	readAhead map[ObjectID]catfile.Object
	// left is how many more commits the page needs (skipped ones included).
	left int
}

func newLogWalk(ctx context.Context, b *catfile.Batch, opts LogOptions) *logWalk {
	return &logWalk{
		ctx: ctx, b: b, opts: opts, seen: map[ObjectID]bool{},
		readAhead: map[ObjectID]catfile.Object{}, left: opts.Skip + opts.Limit,
	}
}

// run lists rev's history as git log does by default: the newest committer date first, each
// commit once, and a commit reached with the same date as queued ones after them (git's
// commit_list_insert_by_date), Skip commits left out, at most Limit kept.
func (w *logWalk) run(rev string) ([]*Commit, error) {
	tip, err := w.b.Read(w.ctx, rev+"^{commit}", -1)
	if err != nil {
		return nil, err
	}
	if err := w.push(tip); err != nil {
		return nil, err
	}
	out := make([]*Commit, 0, w.opts.Limit)
	for w.queue.Len() > 0 {
		c := heap.Pop(&w.queue).(queuedCommit).commit
		if !w.opts.NoMerges || len(c.Parents) < 2 {
			w.left--
			if w.left < w.opts.Limit {
				out = append(out, c)
			}
			if w.left == 0 {
				break
			}
		}
		if err := w.pushParents(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pushParents queues the parents of c not reached before (only the first with FirstParent),
// reading those not read ahead, and more ahead of them, in one round trip.
func (w *logWalk) pushParents(c *Commit) error {
	parents := c.Parents
	if w.opts.FirstParent && len(parents) > 1 {
		parents = parents[:1]
	}
	var reached []ObjectID
	var names []string
	for i, p := range parents {
		if w.seen[p] {
			continue
		}
		w.seen[p] = true
		reached = append(reached, p)
		if _, ok := w.readAhead[p]; ok {
			continue
		}
		ahead := otherParentReadAhead
		if i == 0 {
			ahead = firstParentReadAhead
		}
		names = append(names, string(p))
		for n := 1; n < min(ahead, w.left); n++ {
			names = append(names, string(p)+"~"+strconv.Itoa(n))
		}
	}
	if len(names) > 0 {
		objs, err := w.b.ReadMany(w.ctx, names, -1)
		if err != nil {
			return err
		}
		for _, o := range objs {
			if !o.Missing { // "~n" past a root commit names nothing
				w.readAhead[ObjectID(o.OID)] = o
			}
		}
	}
	for _, p := range reached {
		o, ok := w.readAhead[p]
		if !ok {
			return errNotWalkable
		}
		delete(w.readAhead, p)
		if err := w.push(o); err != nil {
			return err
		}
	}
	return nil
}

// push parses a commit read from cat-file and queues it.
func (w *logWalk) push(o catfile.Object) error {
	if o.Missing || o.Type != string(TypeCommit) {
		return errNotWalkable
	}
	date, ok := commitDate(o.Data)
	if !ok {
		return errNotWalkable
	}
	c, err := ParseCommit(ObjectID(o.OID), o.Data)
	if err != nil {
		return errNotWalkable
	}
	w.seen[c.ID] = true
	heap.Push(&w.queue, queuedCommit{commit: c, date: date, seq: w.seq})
	w.seq++
	return nil
}

// queuedCommit is a commit waiting in the walk's queue.
type queuedCommit struct {
	commit *Commit
	date   int64
	// seq orders commits of the same date by when they were queued.
	seq uint64
}

// dateQueue is a heap of commits, newest date first, then first queued first.
type dateQueue []queuedCommit

func (q dateQueue) Len() int { return len(q) }
func (q dateQueue) Less(i, j int) bool {
	if q[i].date != q[j].date {
		return q[i].date > q[j].date
	}
	return q[i].seq < q[j].seq
}
func (q dateQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *dateQueue) Push(x any)   { *q = append(*q, x.(queuedCommit)) }
func (q *dateQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// commitDate returns the committer date git orders a commit by. It answers only for the layout
// git writes (tree and parent lines, then "author …" and "committer Name <email> <seconds>
// <zone>" with one ">", and more after that line) and for dates below 2^34 seconds, what a
// commit-graph file holds: git versions read malformed committer lines differently and a
// commit-graph cuts larger dates, so ok is false for anything else and git log decides.
func commitDate(data []byte) (date int64, ok bool) {
	line, rest, found := bytes.Cut(data, []byte{'\n'})
	if !found || !bytes.HasPrefix(line, []byte("tree ")) || !IsFullObjectID(string(line[len("tree "):])) {
		return 0, false
	}
	for {
		if line, rest, found = bytes.Cut(rest, []byte{'\n'}); !found {
			return 0, false
		}
		if !bytes.HasPrefix(line, []byte("parent ")) {
			break
		}
		if !IsFullObjectID(string(line[len("parent "):])) {
			return 0, false
		}
	}
	if !bytes.HasPrefix(line, []byte("author ")) {
		return 0, false
	}
	line, rest, found = bytes.Cut(rest, []byte{'\n'})
	if !found || len(rest) == 0 || !bytes.HasPrefix(line, []byte("committer ")) {
		return 0, false
	}
	gt := bytes.IndexByte(line, '>')
	if gt < 0 || bytes.LastIndexByte(line, '>') != gt {
		return 0, false
	}
	after, ok := bytes.CutPrefix(line[gt+1:], []byte{' '})
	if !ok {
		return 0, false
	}
	digits, _, _ := bytes.Cut(after, []byte{' '})
	if len(digits) == 0 || len(digits) > 11 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil || n >= 1<<34 {
		return 0, false
	}
	return n, true
}
