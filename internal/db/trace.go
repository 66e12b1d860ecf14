package db

import (
	"context"
	"database/sql/driver"
	"sync/atomic"
)

// Statement is one statement a connection ran, as TraceStatements reports it.
type Statement struct {
	Query string
	Args  []any
	// CustomPlans: run with WithCustomPlans (planned for its arguments, never prepared).
	CustomPlans bool
}

// tracer, when set, sees every statement the pool's connections run.
var tracer atomic.Pointer[func(Statement)]

// TraceStatements calls fn with every statement run through any database Open returned, until
// stop is called: benchmarks count and time the statements of one request with it. One
// tracer at a time; fn must be safe for concurrent use. Unset, it costs one atomic load.
func TraceStatements(fn func(Statement)) (stop func()) {
	tracer.Store(&fn)
	return func() { tracer.Store(nil) }
}

// trace reports a statement to the tracer, if any.
func trace(ctx context.Context, query string, args []driver.NamedValue) {
	fn := tracer.Load()
	if fn == nil {
		return
	}
	vs := make([]any, len(args))
	for i, a := range args {
		vs[i] = a.Value
	}
	(*fn)(Statement{Query: query, Args: vs, CustomPlans: ctx.Value(customPlansKey{}) != nil})
}
