package servertest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"sync"
	"testing"

	"anvil/ent/migrate"
	"anvil/internal/db"
	"anvil/internal/jobs"

	"entgo.io/ent/dialect/sql/schema"
)

// A test server's start used to migrate a new, empty database every time: ent's migration of
// every table and index, then River's. On PostgreSQL with the race detector that was most of a
// test server's start. Start now copies the database from a template that holds this build's
// migrated schema and nothing else, and tells the server to skip its migrations
// (server.Options.Migrated): on PostgreSQL a database created from a template database
// (CREATE DATABASE ... TEMPLATE), on SQLite a copy of a migrated database file. The template is
// named by the schema's fingerprint (SchemaFingerprint), made once by whichever test process
// needs it first and reused by every later one until the schema changes. Database still
// returns an empty database: the migration tests and the servers tests build themselves
// migrate one from nothing, on both databases. It is used by default on PostgreSQL, on SQLite
// when ANVIL_TEST_TEMPLATE=1 (templateEnabled).

// templateVersion changes the fingerprint by hand, should the way a template is made change.
const templateVersion = "1"

var (
	fingerprintOnce sync.Once
	fingerprint     string
)

// SchemaFingerprint is a hash of everything the migrations of this build create: ent's tables
// (columns, types, sizes, defaults, keys, indexes and foreign keys, as in ent/migrate) and the
// versions of the modules that migrate them (ent and Atlas, River's migrations).
func SchemaFingerprint() string {
	fingerprintOnce.Do(func() {
		h := sha256.New()
		fmt.Fprintf(h, "template %s\n", templateVersion)
		_ = json.NewEncoder(h).Encode(schemaShape())
		if bi, ok := debug.ReadBuildInfo(); ok {
			deps := make([]string, 0, len(bi.Deps))
			for _, m := range bi.Deps {
				v := m.Version
				if m.Replace != nil {
					v = m.Replace.Path + "@" + m.Replace.Version
				}
				deps = append(deps, m.Path+"@"+v)
			}
			sort.Strings(deps)
			for _, d := range deps {
				fmt.Fprintln(h, d)
			}
		}
		fingerprint = hex.EncodeToString(h.Sum(nil))[:20]
	})
	return fingerprint
}

// schemaShape is ent/migrate's tables as plain data (the tables point at one another, so they
// are not encoded as they are).
func schemaShape() any {
	type column struct {
		Name, Type, Size, Attr, Collation, Comment string
		Unique, Nullable, Increment                bool
		Default                                    string
		Enums                                      []string
		SchemaType                                 map[string]string
	}
	type index struct {
		Name       string
		Unique     bool
		Columns    []string
		Annotation string
	}
	type foreignKey struct {
		Symbol, RefTable    string
		Columns, RefColumns []string
		OnUpdate, OnDelete  string
	}
	type table struct {
		Name, Comment string
		View          bool
		Columns       []column
		PrimaryKey    []string
		Indexes       []index
		ForeignKeys   []foreignKey
		Annotation    string
	}
	names := func(cols []*schema.Column) []string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = c.Name
		}
		return out
	}
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	var tables []table
	for _, t := range migrate.Tables {
		tt := table{Name: t.Name, Comment: t.Comment, View: t.View, PrimaryKey: names(t.PrimaryKey), Annotation: enc(t.Annotation)}
		for _, c := range t.Columns {
			tt.Columns = append(tt.Columns, column{
				Name: c.Name, Type: c.Type.String(), Size: fmt.Sprint(c.Size), Attr: c.Attr, Collation: c.Collation,
				Comment: c.Comment, Unique: c.Unique, Nullable: c.Nullable, Increment: c.Increment,
				Default: fmt.Sprintf("%T %v", c.Default, c.Default), Enums: c.Enums, SchemaType: c.SchemaType,
			})
		}
		for _, ix := range t.Indexes {
			tt.Indexes = append(tt.Indexes, index{Name: ix.Name, Unique: ix.Unique, Columns: names(ix.Columns), Annotation: enc(ix.Annotation)})
		}
		for _, fk := range t.ForeignKeys {
			tt.ForeignKeys = append(tt.ForeignKeys, foreignKey{
				Symbol: fk.Symbol, RefTable: fk.RefTable.Name, Columns: names(fk.Columns), RefColumns: names(fk.RefColumns),
				OnUpdate: string(fk.OnUpdate), OnDelete: string(fk.OnDelete),
			})
		}
		tables = append(tables, tt)
	}
	return tables
}

// migrateSchema migrates the database at url (dataDir for SQLite) as a server's start does:
// ent's schema, then River's tables.
func migrateSchema(url, dataDir string) error {
	ctx := context.Background()
	d, err := db.Open(url, dataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return err
	}
	q := jobs.New(d, url, jobs.Config{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer func() { _ = q.Stop(ctx) }()
	return q.Migrate(ctx)
}

// templates remembers, per PostgreSQL server and for SQLite (""), the template this process
// found or made, or why there is none (then tests migrate as before).
var templates sync.Map // string -> *template

type template struct {
	once sync.Once
	name string // PostgreSQL: the template database; SQLite: the migrated file
	err  error
}

func templateFor(key string, create func() (string, error)) (string, error) {
	v, _ := templates.LoadOrStore(key, &template{})
	t := v.(*template)
	t.once.Do(func() { t.name, t.err = create() })
	return t.name, t.err
}

// postgresTemplate returns the name of the template database of this schema on the server of
// base (admin is connected to it), making it when no test process has. It is made under a
// name of its own, migrated, closed to connections (a database being copied must have none)
// and only then renamed to its fingerprint's name, so a template under that name is complete;
// two processes that make it at once both succeed, and the loser drops its copy.
func postgresTemplate(admin *sql.DB, base string) (string, error) {
	name := "anvil_template_" + SchemaFingerprint()
	exists := func() (bool, error) {
		var n int
		err := admin.QueryRow("SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n)
		return n > 0, err
	}
	if ok, err := exists(); err != nil || ok {
		return name, err
	}
	tmp := "anvil_making_" + randomHex(6)
	if _, err := admin.Exec("CREATE DATABASE " + tmp); err != nil {
		return "", err
	}
	drop := func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + tmp + " WITH (FORCE)") }
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return "", err
	}
	u.Path = "/" + tmp
	dir, err := os.MkdirTemp("", "anvil-template-")
	if err != nil {
		drop()
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := migrateSchema(u.String(), dir); err != nil {
		drop()
		return "", fmt.Errorf("migrate the template: %w", err)
	}
	if _, err := admin.Exec("ALTER DATABASE " + tmp + " WITH ALLOW_CONNECTIONS false IS_TEMPLATE true"); err != nil {
		drop()
		return "", err
	}
	if _, err := admin.Exec("ALTER DATABASE " + tmp + " RENAME TO " + name); err != nil {
		// Another process renamed its copy first; use that one.
		_, _ = admin.Exec("ALTER DATABASE " + tmp + " IS_TEMPLATE false")
		drop()
		if ok, err2 := exists(); !ok || err2 != nil {
			return "", errors.Join(err, err2)
		}
	}
	return name, nil
}

// sqliteTemplate returns a migrated SQLite database file of this schema in the temporary
// directory, making it when no test process has (in a directory of its own, renamed into place
// once complete). The database is closed before it is renamed, so the file is all of it (no
// write-ahead log beside it).
func sqliteTemplate() (string, error) {
	root := filepath.Join(os.TempDir(), "anvil-test-templates")
	path := filepath.Join(root, "sqlite-"+SchemaFingerprint()+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(root, "making-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := migrateSchema("", dir); err != nil {
		return "", fmt.Errorf("migrate the template: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(filepath.Join(dir, "anvil.db"+suffix)); err == nil {
			return "", fmt.Errorf("the template's %s file is still there after closing", suffix)
		}
	}
	if err := os.Rename(filepath.Join(dir, "anvil.db"), path); err != nil {
		return "", err
	}
	return path, nil
}

// migratedDatabase prepares a fresh database holding this build's migrated schema: a new
// PostgreSQL database copied from the template when ANVIL_TEST_DATABASE_URL is set (dropped
// when tb ends), else the SQLite file anvil.db in dataDir. It returns the database URL and
// whether the schema is there; when the template could not be made (it is logged), the
// database is an empty one and the server migrates it as before.
func migratedDatabase(tb testing.TB, dataDir string) (string, bool) {
	tb.Helper()
	pg := os.Getenv("ANVIL_TEST_DATABASE_URL")
	if !templateEnabled(pg != "") {
		return Database(tb), false
	}
	if pg == "" {
		src, err := templateFor("", sqliteTemplate)
		if err == nil {
			err = copyFile(src, filepath.Join(dataDir, "anvil.db"))
		}
		if err != nil {
			tb.Logf("no SQLite template (the server migrates): %v", err)
			return "", false
		}
		return "", true
	}
	admin, err := sql.Open("postgres", pg)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl, err := templateFor(pg, func() (string, error) { return postgresTemplate(admin, pg) })
	if err != nil {
		_ = admin.Close()
		tb.Logf("no PostgreSQL template (the server migrates): %v", err)
		return Database(tb), false
	}
	dropLeftovers(tb, admin, pg)
	name := testDBName()
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + tmpl); err != nil {
		_ = admin.Close()
		tb.Logf("copy the template %s (the server migrates): %v", tmpl, err)
		return Database(tb), false
	}
	tb.Cleanup(func() { dropInBackground(admin, name) })
	return databaseURL(tb, pg, name), true
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// templateEnabled says whether test servers start on a copy of the template: by default on
// PostgreSQL, where it was measured (docs/PERFORMANCE.md: a package's tests 3 to 4 times
// faster, the migration being most of a test's wall time there), and on SQLite only with
// ANVIL_TEST_TEMPLATE=1 (its migration takes 0.1 s). ANVIL_TEST_TEMPLATE=0 turns it off.
func templateEnabled(postgres bool) bool {
	switch os.Getenv("ANVIL_TEST_TEMPLATE") {
	case "":
		return postgres
	case "0":
		return false
	default:
		return true
	}
}
