package longproc

import (
	"context"
	"errors"
	"sync"
	"time"

	"anvil/internal/git/gitcmd"
)

// Options sizes a Cache. Zero fields take the defaults.
type Options struct {
	// MaxIdlePerRepo is how many idle processes one repository keeps (default 4).
	MaxIdlePerRepo int
	// MaxIdle is how many idle processes the cache keeps in all (default 64); the longest idle
	// one is closed first.
	MaxIdle int
	// IdleTimeout closes a process idle for longer (default one minute).
	IdleTimeout time.Duration
}

// ErrClosed: the pool was closed or its context ended.
var ErrClosed = errors.New("process pool closed")

// Pool hands out processes per repository and keeps idle ones for reuse. It is safe
// for concurrent use. Processes live under the context given to New: when it ends, or Close is
// called, they all stop.
type Pool[T Slot] struct {
	runner *gitcmd.Runner
	start  StartFunc[T]
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	idle   map[string][]T // per repository, oldest first
	nidle  int
	gen    map[string]uint64 // bumped by Evict; older processes are not reused
	closed bool
	wg     sync.WaitGroup // the janitor and closing processes
}

// StartFunc starts one process of a pool's kind for repo.
type StartFunc[T Slot] func(ctx context.Context, runner *gitcmd.Runner, repo string) (T, error)

// NewPool returns a pool starting processes with start on runner.
func NewPool[T Slot](ctx context.Context, runner *gitcmd.Runner, opts Options, start StartFunc[T]) *Pool[T] {
	if opts.MaxIdlePerRepo <= 0 {
		opts.MaxIdlePerRepo = 4
	}
	if opts.MaxIdle <= 0 {
		opts.MaxIdle = 64
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = time.Minute
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &Pool[T]{
		runner: runner, start: start, opts: opts, ctx: ctx, cancel: cancel,
		idle: map[string][]T{}, gen: map[string]uint64{},
	}
	c.wg.Add(1)
	go c.janitor()
	return c
}

// Get returns a process for repo: an idle one, or a new one. Give it back with Put.
func (c *Pool[T]) Get(ctx context.Context, repo string) (T, error) {
	var none T
	if err := ctx.Err(); err != nil {
		return none, err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return none, ErrClosed
	}
	if list := c.idle[repo]; len(list) > 0 {
		b := list[len(list)-1] // the most recently used is the warmest
		c.idle[repo] = list[:len(list)-1]
		if len(c.idle[repo]) == 0 {
			delete(c.idle, repo)
		}
		c.nidle--
		c.mu.Unlock()
		return b, nil
	}
	gen := c.gen[repo]
	c.mu.Unlock()
	b, err := c.start(c.ctx, c.runner, repo)
	if err != nil {
		if c.ctx.Err() != nil {
			return none, ErrClosed
		}
		return none, err
	}
	b.Proc().gen = gen
	return b, nil
}

// Put gives b back. A broken process, one of an evicted generation, or one beyond the limits
// is closed instead of kept.
func (c *Pool[T]) Put(b T) {
	p := b.Proc()
	if p == nil {
		return
	}
	c.mu.Lock()
	if p.Broken || c.closed || p.gen != c.gen[p.repo] || c.ctx.Err() != nil {
		c.mu.Unlock()
		c.closeAsync(b)
		return
	}
	p.since = time.Now()
	c.idle[p.repo] = append(c.idle[p.repo], b)
	c.nidle++
	var drop []T
	if list := c.idle[p.repo]; len(list) > c.opts.MaxIdlePerRepo {
		drop = append(drop, list[0])
		c.idle[p.repo] = list[1:]
		c.nidle--
	}
	for c.nidle > c.opts.MaxIdle {
		drop = append(drop, c.popOldestLocked())
	}
	c.mu.Unlock()
	for _, d := range drop {
		c.closeAsync(d)
	}
}

// Do runs fn with a process for repo and gives it back.
func (c *Pool[T]) Do(ctx context.Context, repo string, fn func(T) error) error {
	b, err := c.Get(ctx, repo)
	if err != nil {
		return err
	}
	defer c.Put(b)
	return fn(b)
}

// Evict closes the idle processes of repo and keeps processes in use from being reused. Call
// it when a repository is removed or replaced on disk.
func (c *Pool[T]) Evict(repo string) {
	c.mu.Lock()
	c.gen[repo]++
	list := c.idle[repo]
	delete(c.idle, repo)
	c.nidle -= len(list)
	c.mu.Unlock()
	for _, b := range list {
		c.closeAsync(b)
	}
}

// Idle is the number of idle processes.
func (c *Pool[T]) Idle() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nidle
}

// Close stops every process and waits for them.
func (c *Pool[T]) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		c.wg.Wait()
		return
	}
	c.closed = true
	var all []T
	for _, list := range c.idle {
		all = append(all, list...)
	}
	c.idle, c.nidle = map[string][]T{}, 0
	c.mu.Unlock()
	c.cancel()
	for _, b := range all {
		c.closeAsync(b)
	}
	c.wg.Wait()
}

func (c *Pool[T]) popOldestLocked() T {
	var oldest T
	var op *Proc
	for _, list := range c.idle {
		if len(list) > 0 && (op == nil || list[0].Proc().since.Before(op.since)) {
			oldest, op = list[0], list[0].Proc()
		}
	}
	list := c.idle[op.repo][1:]
	if len(list) == 0 {
		delete(c.idle, op.repo)
	} else {
		c.idle[op.repo] = list
	}
	c.nidle--
	return oldest
}

// closeAsync closes b in the background while the pool runs, and at once after Close (so that
// no goroutine is added to the wait group Close is waiting on).
func (c *Pool[T]) closeAsync(b T) {
	p := b.Proc()
	p.Broken = true
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		p.close()
		return
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		p.close()
	}()
}

// janitor closes processes idle for longer than IdleTimeout, and everything when the cache's
// context ends.
func (c *Pool[T]) janitor() {
	defer c.wg.Done()
	every := c.opts.IdleTimeout / 4
	if every < 10*time.Millisecond {
		every = 10 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			c.mu.Lock()
			var all []T
			if !c.closed {
				c.closed = true
				for _, list := range c.idle {
					all = append(all, list...)
				}
				c.idle, c.nidle = map[string][]T{}, 0
			}
			c.mu.Unlock()
			for _, b := range all {
				b.Proc().Broken = true
				b.Proc().close()
			}
			return
		case now := <-t.C:
			c.mu.Lock()
			var expired []T
			for repo, list := range c.idle {
				n := 0
				for n < len(list) && now.Sub(list[n].Proc().since) > c.opts.IdleTimeout {
					n++
				}
				if n == 0 {
					continue
				}
				expired = append(expired, list[:n]...)
				if n == len(list) {
					delete(c.idle, repo)
				} else {
					c.idle[repo] = list[n:]
				}
				c.nidle -= n
			}
			c.mu.Unlock()
			for _, b := range expired {
				c.closeAsync(b)
			}
		}
	}
}
