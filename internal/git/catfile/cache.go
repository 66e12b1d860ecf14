package catfile

import (
	"context"

	"anvil/internal/git/gitcmd"
	"anvil/internal/git/longproc"
)

// Options sizes a Cache. Zero fields take the defaults (see longproc.Options).
type Options = longproc.Options

// ErrClosed: the cache was closed or its context ended.
var ErrClosed = longproc.ErrClosed

// Cache hands out cat-file processes per repository and keeps idle ones for reuse. It is safe
// for concurrent use. Processes live under the context given to New: when it ends, or Close is
// called, they all stop.
type Cache = longproc.Pool[*Batch]

// New returns a cache starting cat-file processes with runner.
func New(ctx context.Context, runner *gitcmd.Runner, opts Options) *Cache {
	return longproc.NewPool(ctx, runner, opts, startBatch)
}
