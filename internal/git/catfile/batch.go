// Package catfile reads objects through long-lived "git cat-file --batch-command" processes,
// which answer both "info" (type and size, what --batch-check gives) and "contents" (what
// --batch gives) requests, so one process per slot replaces the classic --batch/--batch-check
// pair. Reading through a running process costs tens of microseconds per object instead of a
// few milliseconds for a new process. A Cache keeps a few idle processes per repository.
package catfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"anvil/internal/git/gitcmd"
	"anvil/internal/git/longproc"
)

// Errors of object reads.
var (
	// ErrNotFound: the name does not resolve to an object.
	ErrNotFound = errors.New("object not found")
	// ErrAmbiguous: a short object id matches several objects.
	ErrAmbiguous = errors.New("object name is ambiguous")
	// ErrInvalidName: the name cannot be sent to cat-file (empty, or contains a newline or NUL).
	ErrInvalidName = errors.New("invalid object name")
	// errBroken: the process is unusable (killed, or its output was not understood).
	errBroken = errors.New("cat-file process unusable")
)

// Info describes an object.
type Info struct {
	// OID is the full object id.
	OID string
	// Type is "blob", "tree", "commit" or "tag".
	Type string
	// Size is the size of the object's content in bytes.
	Size int64
}

// Object is an object's info and content.
type Object struct {
	Info
	// Data is the content, or its first bytes when Truncated.
	Data []byte
	// Truncated: the object is larger than the limit the read asked for.
	Truncated bool
	// Missing: in a multi-object read, the name did not resolve (Info and Data are empty).
	Missing bool
}

// Batch is one "git cat-file --batch-command --buffer" process for one repository. A Batch is
// not safe for concurrent use: take one from a Cache per goroutine.
type Batch struct {
	p *longproc.Proc
}

// Proc is the process behind the batch (for the Cache).
func (b *Batch) Proc() *longproc.Proc { return b.p }

// Repo is the repository path the process reads.
func (b *Batch) Repo() string { return b.p.Repo() }

func startBatch(ctx context.Context, runner *gitcmd.Runner, repo string) (*Batch, error) {
	p, err := longproc.Start(ctx, runner, repo, gitcmd.New("cat-file", "--batch-command", "--buffer"))
	if err != nil {
		return nil, err
	}
	return &Batch{p: p}, nil
}

// rules: after "missing", "ambiguous" or a refused name the process is still in step.
var rules = longproc.Rules{
	What: "read object",
	Keeps: func(err error) bool {
		return errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous) || errors.Is(err, ErrInvalidName)
	},
	Broken: errBroken,
}

// guard ties one request to ctx (see longproc.Proc.Guard).
func (b *Batch) guard(ctx context.Context, err *error) func() {
	return b.p.Guard(ctx, err, rules)
}

// checkName refuses what cannot be sent to the process, and what git would answer by exiting
// instead of "missing" (which would end the process for every later reader): whatever a caller
// passes, no request can kill a shared cat-file process.
func checkName(name string) error {
	switch {
	case name == "" || strings.ContainsAny(name, "\n\x00"):
		return fmt.Errorf("%w: %q", ErrInvalidName, name)
	case strings.Contains(name, ":./") || strings.Contains(name, ":../"):
		// "rev:./path" is relative to a working tree: fatal in a bare repository.
		return fmt.Errorf("%w: %q has a relative path", ErrInvalidName, name)
	case NamesUpstream(name):
		return fmt.Errorf("%w: %q names an upstream", ErrInvalidName, name)
	}
	return nil
}

// upstreamMarks are the revision suffixes naming a branch's upstream or push target, which git
// resolves by exiting when the repository has none (a bare repository never has one).
var upstreamMarks = []string{"@{u}", "@{upstream}", "@{push}"}

// NamesUpstream reports whether a revision expression names an upstream or push target
// (case-insensitive, as git reads them).
func NamesUpstream(rev string) bool {
	if !strings.Contains(rev, "@{") {
		return false
	}
	lower := strings.ToLower(rev)
	for _, m := range upstreamMarks {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

// send writes one request per name followed by a flush, so the process answers all of them.
func (b *Batch) send(command string, names []string) error {
	for _, n := range names {
		if err := checkName(n); err != nil {
			return err
		}
	}
	for _, n := range names {
		b.p.W.WriteString(command)
		b.p.W.WriteByte(' ')
		b.p.W.WriteString(n)
		b.p.W.WriteByte('\n')
	}
	b.p.W.WriteString("flush\n")
	if err := b.p.W.Flush(); err != nil {
		return fmt.Errorf("write cat-file request: %w", err)
	}
	return nil
}

// header reads one response header.
func (b *Batch) header() (Info, error) {
	line, err := b.p.R.ReadString('\n')
	if err != nil {
		return Info{}, fmt.Errorf("read cat-file header: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	if f := strings.Split(line, " "); len(f) == 3 && isType(f[1]) {
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err == nil && size >= 0 && longproc.IsObjectID(f[0]) {
			return Info{OID: f[0], Type: f[1], Size: size}, nil
		}
	}
	switch {
	case strings.HasSuffix(line, " missing"):
		return Info{}, fmt.Errorf("%w: %q", ErrNotFound, strings.TrimSuffix(line, " missing"))
	case strings.HasSuffix(line, " ambiguous"):
		return Info{}, fmt.Errorf("%w: %q", ErrAmbiguous, strings.TrimSuffix(line, " ambiguous"))
	}
	return Info{}, fmt.Errorf("%w: unexpected cat-file header %q", errBroken, line)
}

// body reads an object's content after its header: up to limit bytes are kept (all when limit
// is negative), the rest is consumed and dropped.
func (b *Batch) body(info Info, limit int64, w io.Writer) (data []byte, truncated bool, err error) {
	keep := info.Size
	if limit >= 0 && keep > limit {
		keep, truncated = limit, true
	}
	if w != nil {
		if _, err := io.CopyN(w, b.p.R, info.Size); err != nil {
			return nil, false, fmt.Errorf("copy object %s: %w", info.OID, err)
		}
	} else {
		data = make([]byte, keep)
		if _, err := io.ReadFull(b.p.R, data); err != nil {
			return nil, false, fmt.Errorf("read object %s: %w", info.OID, err)
		}
		if rest := info.Size - keep; rest > 0 {
			if _, err := io.CopyN(io.Discard, b.p.R, rest); err != nil {
				return nil, false, fmt.Errorf("read object %s: %w", info.OID, err)
			}
		}
	}
	if c, err := b.p.R.ReadByte(); err != nil || c != '\n' {
		return nil, false, fmt.Errorf("%w: object %s not followed by a newline", errBroken, info.OID)
	}
	return data, truncated, nil
}

// Info returns the type and size of the object name resolves to (any revision expression git
// understands: an id, "main", "v1^{commit}", "main:path/to/file").
func (b *Batch) Info(ctx context.Context, name string) (info Info, err error) {
	defer b.guard(ctx, &err)()
	if err != nil {
		return Info{}, err
	}
	if err = b.send("info", []string{name}); err != nil {
		return Info{}, err
	}
	return b.header()
}

// Read returns the object name resolves to, keeping at most limit bytes of its content
// (everything when limit is negative).
func (b *Batch) Read(ctx context.Context, name string, limit int64) (obj Object, err error) {
	defer b.guard(ctx, &err)()
	if err != nil {
		return Object{}, err
	}
	if err = b.send("contents", []string{name}); err != nil {
		return Object{}, err
	}
	info, err := b.header()
	if err != nil {
		return Object{}, err
	}
	data, truncated, err := b.body(info, limit, nil)
	if err != nil {
		return Object{}, err
	}
	return Object{Info: info, Data: data, Truncated: truncated}, nil
}

// ReadTo copies the content of the object name resolves to into w, without holding it in
// memory. An error from w leaves the process unusable, so it is closed.
func (b *Batch) ReadTo(ctx context.Context, name string, w io.Writer) (info Info, err error) {
	defer b.guard(ctx, &err)()
	if err != nil {
		return Info{}, err
	}
	if err = b.send("contents", []string{name}); err != nil {
		return Info{}, err
	}
	if info, err = b.header(); err != nil {
		return Info{}, err
	}
	_, _, err = b.body(info, -1, w)
	return info, err
}

// InfoMany returns the info of each name, in order, with one round trip. A name that does not
// resolve gives a zero Info (empty OID).
func (b *Batch) InfoMany(ctx context.Context, names []string) (infos []Info, err error) {
	defer b.guard(ctx, &err)()
	if err != nil || len(names) == 0 {
		return nil, err
	}
	if err = b.send("info", names); err != nil {
		return nil, err
	}
	infos = make([]Info, len(names))
	for i := range names {
		info, err := b.header()
		switch {
		case errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous):
			continue
		case err != nil:
			return nil, err
		}
		infos[i] = info
	}
	return infos, nil
}

// ReadMany reads each name, in order, with one round trip, keeping at most limit bytes of each
// (everything when limit is negative). A name that does not resolve gives an Object with
// Missing set.
func (b *Batch) ReadMany(ctx context.Context, names []string, limit int64) (objs []Object, err error) {
	defer b.guard(ctx, &err)()
	if err != nil || len(names) == 0 {
		return nil, err
	}
	if err = b.send("contents", names); err != nil {
		return nil, err
	}
	objs = make([]Object, len(names))
	for i := range names {
		info, err := b.header()
		switch {
		case errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous):
			objs[i].Missing = true
			continue
		case err != nil:
			return nil, err
		}
		data, truncated, err := b.body(info, limit, nil)
		if err != nil {
			return nil, err
		}
		objs[i] = Object{Info: info, Data: data, Truncated: truncated}
	}
	return objs, nil
}

func isType(t string) bool {
	switch t {
	case "blob", "tree", "commit", "tag":
		return true
	}
	return false
}
