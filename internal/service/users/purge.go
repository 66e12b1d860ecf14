package users

import (
	"context"
	"fmt"

	"anvil/ent"
	"anvil/ent/migrate"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"
)

// fkRef is one foreign key column pointing at a table.
type fkRef struct {
	table    *schema.Table
	column   string
	nullable bool
}

// refsTo indexes every foreign key of the schema by the table it references, so deleting rows
// can first deal with whatever points at them, whichever packages added those tables.
var refsTo = func() map[string][]fkRef {
	out := map[string][]fkRef{}
	for _, t := range migrate.Tables {
		for _, fk := range t.ForeignKeys {
			if fk.RefTable == nil || len(fk.Columns) != 1 {
				continue
			}
			c := fk.Columns[0]
			out[fk.RefTable.Name] = append(out[fk.RefTable.Name], fkRef{table: t, column: c.Name, nullable: c.Nullable})
		}
	}
	return out
}()

// hasIDKey reports whether t's primary key is the single id column.
func hasIDKey(t *schema.Table) bool {
	return len(t.PrimaryKey) == 1 && t.PrimaryKey[0].Name == "id"
}

// purger deletes rows inside one transaction, cascading by the schema's foreign keys: rows that
// cannot exist without a deleted row (NOT NULL references) are deleted first, recursively, and
// optional references are cleared.
type purger struct {
	c       *ent.Client
	dialect string
	done    map[string]map[int]bool
}

// newPurger returns a purger on the transaction's client.
func newPurger(ctx context.Context, c *ent.Client) (*purger, error) {
	var d string
	// The dialect is only visible to query builders; an always-false probe reveals it.
	_, err := c.Setting.Query().Where(func(s *sql.Selector) { d = s.Dialect(); s.Where(sql.False()) }).Exist(ctx)
	return &purger{c: c, dialect: d, done: map[string]map[int]bool{}}, err
}

// purge deletes the rows ids of table and everything that must go with them.
func (p *purger) purge(ctx context.Context, table string, ids []int) error {
	if p.done[table] == nil {
		p.done[table] = map[int]bool{}
	}
	fresh := make([]int, 0, len(ids))
	for _, id := range ids {
		if !p.done[table][id] {
			p.done[table][id] = true
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	for _, r := range refsTo[table] {
		if err := p.detach(ctx, r, fresh); err != nil {
			return err
		}
	}
	return p.exec(ctx, sql.Dialect(p.dialect).Delete(table).Where(sql.InInts("id", fresh...)))
}

// detach deals with the rows of r.table pointing at ids: optional references are cleared,
// required ones deleted.
func (p *purger) detach(ctx context.Context, r fkRef, ids []int) error {
	b := sql.Dialect(p.dialect)
	if r.nullable {
		return p.exec(ctx, b.Update(r.table.Name).SetNull(r.column).Where(sql.InInts(r.column, ids...)))
	}
	if !hasIDKey(r.table) {
		return p.exec(ctx, b.Delete(r.table.Name).Where(sql.InInts(r.column, ids...)))
	}
	children, err := p.ids(ctx, r.table.Name, sql.InInts(r.column, ids...))
	if err != nil {
		return err
	}
	return p.purge(ctx, r.table.Name, children)
}

// ids returns the ids of the rows of table matching where.
func (p *purger) ids(ctx context.Context, table string, where *sql.Predicate) ([]int, error) {
	query, args := sql.Dialect(p.dialect).Select("id").From(sql.Table(table)).Where(where).Query()
	rows, err := p.c.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("select %s: %w", table, err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// exec runs a built statement.
func (p *purger) exec(ctx context.Context, q sql.Querier) error {
	query, args := q.Query()
	if _, err := p.c.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", query, err)
	}
	return nil
}

// handOver deals with every remaining reference to the user: with hard set, rows that require
// the user are deleted (their contributions) and optional references cleared; otherwise all of
// them move to ghostID, as GitLab moves contributions to its Ghost User. The users table's own
// references (created_by) are always cleared.
func (p *purger) handOver(ctx context.Context, userID, ghostID int, hard bool) error {
	for _, r := range refsTo[migrate.UsersTable.Name] {
		b := sql.Dialect(p.dialect)
		var err error
		switch {
		case r.table.Name == migrate.UsersTable.Name || (hard && r.nullable):
			err = p.exec(ctx, b.Update(r.table.Name).SetNull(r.column).Where(sql.EQ(r.column, userID)))
		case hard:
			err = p.detach(ctx, r, []int{userID})
		default:
			err = p.exec(ctx, b.Update(r.table.Name).Set(r.column, ghostID).Where(sql.EQ(r.column, userID)))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// referenced reports whether any row other than the users table's own still points at userID.
func (p *purger) referenced(ctx context.Context, userID int) (bool, error) {
	for _, r := range refsTo[migrate.UsersTable.Name] {
		if r.table.Name == migrate.UsersTable.Name {
			continue
		}
		query, args := sql.Dialect(p.dialect).Select(sql.Count("*")).From(sql.Table(r.table.Name)).
			Where(sql.EQ(r.column, userID)).Query()
		rows, err := p.c.QueryContext(ctx, query, args...)
		if err != nil {
			return false, err
		}
		var n int
		if rows.Next() {
			err = rows.Scan(&n)
		}
		_ = rows.Close()
		if err != nil {
			return false, err
		}
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}
