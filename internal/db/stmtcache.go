package db

import (
	"container/list"
	"context"
	"database/sql/driver"
	"strings"
)

// Neither driver reuses work between two runs of the same query text. The SQLite driver (modernc)
// compiles every query on each call; parsing was about a quarter of a single-project read.
// lib/pq runs a query with arguments as an unnamed statement: one round trip to parse it and a
// second to bind and execute it, so every query costs PostgreSQL two network waits. A prepared
// statement needs only the second. database/sql caches prepared statements only for *sql.Stmt
// values, which ent does not use, and neither driver offers a cache of its own, so this file
// keeps a small per-connection cache of prepared SELECT statements (documented in
// docs/ARCHITECTURE.md as hand-written). A driver.Conn is used by one goroutine at a time, so the
// cache needs no lock; a statement whose rows are still open is never handed out twice.

// stmtCacheSize is how many prepared statements each connection keeps.
const stmtCacheSize = 128

// cachingConnector opens the driver's connections wrapped in a cache of prepared SELECTs.
// customPlans (PostgreSQL) lets WithCustomPlans bypass the cache.
type cachingConnector struct {
	driver.Connector
	customPlans bool
}

type customPlansKey struct{}

// WithCustomPlans returns ctx whose SELECTs, on PostgreSQL, bypass the prepared statement cache
// and so are planned for their arguments on every run. A cached statement may be switched by
// PostgreSQL to a generic plan, blind to its arguments, after five runs whenever that plan's
// estimate is no worse: for a list filtered by labels that plan read all 33,000 opened merge
// requests of a project instead of the labels' 500 links, 3-5x slower (docs/PERFORMANCE.md,
// "Merge request lists"). Lists whose best plan depends on the filter's values use it for
// their count and page; every other statement keeps its cached plan, whose planning time the
// cache saves. SQLite has no generic plans and keeps its cache.
func WithCustomPlans(ctx context.Context) context.Context {
	return context.WithValue(ctx, customPlansKey{}, true)
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &cachedConn{Conn: conn, lru: list.New(), byQuery: map[string]*list.Element{}, customPlans: c.customPlans}, nil
}

// dsnConnector adapts a driver that has no connector of its own.
type dsnConnector struct {
	drv driver.Driver
	dsn string
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.drv }

type cachedStmt struct {
	query string
	stmt  driver.Stmt
	busy  bool // rows from it are open
}

// cachedConn wraps a driver connection; every optional interface is forwarded to it.
type cachedConn struct {
	driver.Conn
	lru     *list.List // front: most recently used *cachedStmt
	byQuery map[string]*list.Element
	// customPlans: a context of WithCustomPlans bypasses the cache (PostgreSQL).
	customPlans bool
}

// cacheable keeps single SELECT statements; everything else runs as the driver runs it.
func cacheable(query string) bool {
	return strings.HasPrefix(query, "SELECT") && !strings.Contains(query, ";")
}

// QueryContext runs a SELECT through a cached prepared statement.
func (c *cachedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	trace(ctx, query, args)
	if cacheable(query) && !(c.customPlans && ctx.Value(customPlansKey{}) != nil) {
		cs, err := c.statement(ctx, query)
		if err != nil {
			return nil, err
		}
		if cs != nil {
			rows, err := cs.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
			if err != nil {
				return nil, err
			}
			cs.busy = true
			return &cachedRows{Rows: rows, owner: cs}, nil
		}
	}
	q, ok := c.Conn.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	return q.QueryContext(ctx, query, args)
}

// statement returns the cached statement for query, preparing it on first use; nil when the
// cached one is busy (the caller then runs the query uncached).
func (c *cachedConn) statement(ctx context.Context, query string) (*cachedStmt, error) {
	if el, ok := c.byQuery[query]; ok {
		cs := el.Value.(*cachedStmt)
		if cs.busy {
			return nil, nil
		}
		c.lru.MoveToFront(el)
		return cs, nil
	}
	p, ok := c.Conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, nil
	}
	st, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if _, ok := st.(driver.StmtQueryContext); !ok {
		_ = st.Close()
		return nil, nil
	}
	cs := &cachedStmt{query: query, stmt: st}
	c.byQuery[query] = c.lru.PushFront(cs)
	c.evict()
	return cs, nil
}

// evict closes the least recently used idle statements beyond the cache size.
func (c *cachedConn) evict() {
	for el := c.lru.Back(); el != nil && c.lru.Len() > stmtCacheSize; {
		prev := el.Prev()
		if cs := el.Value.(*cachedStmt); !cs.busy {
			_ = cs.stmt.Close()
			delete(c.byQuery, cs.query)
			c.lru.Remove(el)
		}
		el = prev
	}
}

// Close closes the cached statements, then the connection.
func (c *cachedConn) Close() error {
	for el := c.lru.Front(); el != nil; el = el.Next() {
		_ = el.Value.(*cachedStmt).stmt.Close()
	}
	c.lru.Init()
	clear(c.byQuery)
	return c.Conn.Close()
}

func (c *cachedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	trace(ctx, query, args)
	if e, ok := c.Conn.(driver.ExecerContext); ok {
		return e.ExecContext(ctx, query, args)
	}
	return nil, driver.ErrSkip
}

func (c *cachedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if p, ok := c.Conn.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.Conn.Prepare(query)
}

func (c *cachedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	return c.Conn.Begin() //nolint:staticcheck // fallback for drivers without BeginTx
}

func (c *cachedConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *cachedConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *cachedConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// cachedRows marks its statement free again when closed.
type cachedRows struct {
	driver.Rows
	owner *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.owner.busy = false
	return err
}
