// Package longproc keeps long-lived git processes that answer requests written to their
// standard input (cat-file --batch-command, diff-tree --stdin), so that a request costs a pipe
// round trip instead of starting git. A Pool keeps a few idle processes per repository; the
// protocol of each kind lives in its own package (catfile, difftree) on top of Proc.
package longproc

import (
	"bufio"
	"context"
	"fmt"
	"time"

	"anvil/internal/git/gitcmd"
)

// Proc is one running process for one repository with buffered pipes. It is not safe for
// concurrent use: take one from a Pool per goroutine.
type Proc struct {
	repo  string
	P     *gitcmd.Process
	W     *bufio.Writer
	R     *bufio.Reader
	gen   uint64
	since time.Time // when it became idle
	// Broken is set when the process's state is unknown; it is then closed, never reused.
	Broken bool
}

// Slot is a pooled process of some kind: it exposes its Proc.
type Slot interface {
	Proc() *Proc
}

// Start starts cmd in repo with 64 KiB buffers on both pipes.
func Start(ctx context.Context, runner *gitcmd.Runner, repo string, cmd *gitcmd.Cmd) (*Proc, error) {
	p, err := runner.Start(ctx, repo, cmd)
	if err != nil {
		return nil, err
	}
	return &Proc{
		repo: repo,
		P:    p,
		W:    bufio.NewWriterSize(p.Stdin, 64<<10),
		R:    bufio.NewReaderSize(p.Stdout, 64<<10),
	}, nil
}

// Repo is the repository path the process works on.
func (p *Proc) Repo() string { return p.repo }

// close stops the process and waits for it. Callers mark it broken first.
func (p *Proc) close() {
	p.P.Kill()
	_ = p.P.Wait()
}

// Rules say how a request's outcome affects its process.
type Rules struct {
	// What names the request in the error of a request its context ended ("read object").
	What string
	// Keeps accepts the errors after which the process is still in step (an object not found);
	// any other error marks it broken. Nil accepts none.
	Keeps func(error) bool
	// Broken is the error of a request on a process already broken.
	Broken error
}

// Guard ties one request to ctx: if ctx ends during the request, the process is killed (its
// pipe position would be unknown) and the request returns the context's error. Use it as
// `defer p.Guard(ctx, &err, rules)()` and return at once when err is set after the call.
func (p *Proc) Guard(ctx context.Context, err *error, r Rules) func() {
	if p.Broken {
		*err = r.Broken
		return func() {}
	}
	if e := ctx.Err(); e != nil {
		*err = e
		return func() {}
	}
	stop := context.AfterFunc(ctx, p.P.Kill)
	return func() {
		if !stop() {
			p.Broken = true
			*err = fmt.Errorf("%s: %w", r.What, ctx.Err())
			return
		}
		if *err != nil && (r.Keeps == nil || !r.Keeps(*err)) {
			p.Broken = true
		}
	}
}

// IsObjectID reports whether s is a full object id as git's batch processes print it: 40
// (SHA-1) or 64 (SHA-256) lowercase hexadecimal digits.
func IsObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
