package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/db"
)

// traceStatements, when ANVIL_BENCH_TRACE is set, logs every statement one GET of url runs:
// how many, and each with the fastest of 15 runs of it alone (so a loaded machine still
// ranks them) and, for those over traceExplainOver, its plan. A statement the list ran with
// custom plans is timed with custom plans again; the others through the statement cache, as
// the server runs them.
func traceStatements(b *testing.B, in *servertest.Instance, url, token string) {
	if os.Getenv("ANVIL_BENCH_TRACE") == "" {
		return
	}
	client := &http.Client{}
	get(b, client, url, token) // the caches warm, as in the timed runs
	var (
		mu    sync.Mutex
		stmts []db.Statement
	)
	stop := db.TraceStatements(func(s db.Statement) {
		mu.Lock()
		stmts = append(stmts, s)
		mu.Unlock()
	})
	get(b, client, url, token)
	stop()
	b.Logf("trace %s: %d statements", url, len(stmts))
	var total time.Duration
	for i, s := range stmts {
		best := fastestOf(b, in.DB.SQL, s, 15)
		total += best
		b.Logf("  #%d %.3f ms custom=%v args=%v\n    %s", i+1, float64(best.Microseconds())/1000, s.CustomPlans, s.Args, s.Query)
		if best >= traceExplainOver && strings.HasPrefix(s.Query, "SELECT") {
			b.Logf("    plan:\n%s", explain(b, in, s))
		}
	}
	b.Logf("trace %s: sum of fastest runs %.3f ms", url, float64(total.Microseconds())/1000)
}

// traceExplainOver is how slow a traced statement must be for its plan to be logged.
const traceExplainOver = time.Millisecond

// fastestOf runs a SELECT n times and returns the fastest run (0 for other statements, which
// are not run again).
func fastestOf(b *testing.B, d *sql.DB, s db.Statement, n int) time.Duration {
	if !strings.HasPrefix(s.Query, "SELECT") {
		return 0
	}
	ctx := context.Background()
	if s.CustomPlans {
		ctx = db.WithCustomPlans(ctx)
	}
	best := time.Duration(1 << 62)
	for i := 0; i < n; i++ {
		t := time.Now()
		rows, err := d.QueryContext(ctx, s.Query, s.Args...)
		if err != nil {
			b.Fatalf("%s: %v", s.Query, err)
		}
		for rows.Next() {
		}
		if err := rows.Close(); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(t))
	}
	return best
}

// explain returns the plan of a SELECT: EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL (planned for
// its arguments), EXPLAIN QUERY PLAN on SQLite.
func explain(b *testing.B, in *servertest.Instance, s db.Statement) string {
	prefix := "EXPLAIN QUERY PLAN "
	if in.DB.Dialect == "postgres" {
		prefix = "EXPLAIN (ANALYZE, BUFFERS) "
	}
	rows, err := in.DB.SQL.Query(prefix+s.Query, s.Args...)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err.Error()
		}
		out.WriteString("      ")
		for _, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprint(&out, v, " ")
		}
		out.WriteString("\n")
	}
	return out.String()
}
