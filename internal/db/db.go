// Package db opens the database (embedded SQLite or PostgreSQL), migrates its schema and runs
// transactions for the services.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"anvil/ent"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/lib/pq"  // PostgreSQL driver
	"modernc.org/sqlite" // pure-Go SQLite driver
)

// DB is an open database: the ent client and the SQL handle beneath it.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string // dialect.SQLite or dialect.Postgres
	stop    chan struct{}
	done    chan struct{}
}

// Open connects to url, or to an SQLite file in dataDir when url is empty.
func Open(url, dataDir string) (*DB, error) {
	drvName, dsn, dia := "postgres", url, dialect.Postgres
	if url == "" || strings.HasPrefix(url, "sqlite:") || strings.HasPrefix(url, "file:") {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		path := filepath.Join(dataDir, "anvil.db")
		if strings.HasPrefix(url, "sqlite:") {
			path = strings.TrimPrefix(url, "sqlite:")
		}
		drvName, dia = "sqlite", dialect.SQLite
		// WAL lets readers run beside the writer; immediate transactions take the write lock at
		// BEGIN so two writers queue on busy_timeout instead of failing with SQLITE_BUSY.
		dsn = "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=mmap_size(268435456)&_txlock=immediate"
		if strings.HasPrefix(url, "file:") {
			dsn = url
		}
	}
	var connector driver.Connector = dsnConnector{drv: &sqlite.Driver{}, dsn: dsn}
	if dia == dialect.Postgres {
		var err error
		if connector, err = pq.NewConnector(dsn); err != nil {
			return nil, fmt.Errorf("open %s: %w", drvName, err)
		}
	}
	sqlDB := sql.OpenDB(cachingConnector{Connector: connector, customPlans: dia == dialect.Postgres})
	if dia == dialect.SQLite {
		sqlDB.SetMaxOpenConns(8)
	} else {
		sqlDB.SetMaxOpenConns(32)
		sqlDB.SetMaxIdleConns(16)
	}
	if err := sqlDB.Ping(); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("connect %s: %w", drvName, err)
	}
	client := ent.NewClient(ent.Driver(entsql.OpenDB(dia, sqlDB)))
	d := &DB{Client: client, SQL: sqlDB, Dialect: dia, stop: make(chan struct{}), done: make(chan struct{})}
	if dia == dialect.Postgres {
		networked.Store(client, struct{}{})
	}
	go d.maintain()
	return d, nil
}

// optimizeEvery is how often SQLite's planner statistics are refreshed.
const optimizeEvery = 10 * time.Minute

// maintain refreshes planner statistics periodically until Close.
func (d *DB) maintain() {
	defer close(d.done)
	t := time.NewTicker(optimizeEvery)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if err := d.Optimize(ctx); err != nil {
				slog.Warn("refresh planner statistics", "err", err)
			}
			cancel()
		}
	}
}

// Optimize refreshes the query planner's statistics. SQLite has none until ANALYZE runs, and
// without them it plans listings as multi-index ORs followed by a sort of every visible row
// instead of walking the ordering index and stopping after a page; `PRAGMA optimize` (with a
// bounded analysis_limit) is SQLite's recommended upkeep. PostgreSQL's autovacuum keeps its own
// statistics, so there it does nothing.
func (d *DB) Optimize(ctx context.Context) error {
	if d.Dialect != dialect.SQLite {
		return nil
	}
	_, err := d.SQL.ExecContext(ctx, "PRAGMA analysis_limit=1000; PRAGMA optimize=0x10002")
	return err
}

// retiredIndexes are indexes an earlier schema created and the current one replaced; ent's
// migration never drops an index, so Migrate drops these by name (a no-op once gone).
var retiredIndexes = []string{
	"issuelabel_label_id", // replaced by issuelabel_label_id_issue_id (the label filter reads it alone)
	// approval_project_rule_id was one-to-one (a project rule the source of one merge request
	// rule only); many merge request rules share a source rule now.
	"approval_rules_approval_project_rule_id_key",
}

// Migrate brings the schema up to date. It adds tables, columns and indexes, and drops only
// the retired indexes named above.
func (d *DB) Migrate(ctx context.Context) error {
	if err := d.Client.Schema.Create(ctx); err != nil {
		return fmt.Errorf("migrate schema: %w", err)
	}
	for _, name := range retiredIndexes {
		if _, err := d.SQL.ExecContext(ctx, "DROP INDEX IF EXISTS "+name); err != nil {
			return fmt.Errorf("drop retired index %s: %w", name, err)
		}
	}
	return d.Optimize(ctx)
}

// Close stops the upkeep and closes the database.
func (d *DB) Close() error {
	select {
	case <-d.stop:
	default:
		close(d.stop)
		<-d.done
		networked.Delete(d.Client)
	}
	return d.Client.Close()
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }

// ClientFrom returns the transaction's client when ctx carries one, else base.
func ClientFrom(ctx context.Context, base *ent.Client) *ent.Client {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return tx.Client()
	}
	return base
}

// WithTx runs fn in a transaction, reusing one already in ctx (a GraphQL mutation's, say), so a
// service behaves the same whichever API called it. fn receives a context that carries the tx.
func WithTx(ctx context.Context, base *ent.Client, fn func(ctx context.Context, client *ent.Client) error) error {
	if tx := ent.TxFromContext(ctx); tx != nil {
		return fn(ctx, tx.Client())
	}
	tx, err := base.Tx(ctx)
	if err != nil {
		return fmt.Errorf("begin tx: %w", err)
	}
	txCtx := ent.NewTxContext(ctx, tx)
	if err := fn(txCtx, tx.Client()); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
