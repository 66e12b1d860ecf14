package filter

import (
	"strconv"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pred func(*sql.Selector)

// query renders the predicates over table issues as SQLite SQL.
func query(ps []pred) (string, []any) {
	s := sql.Dialect(dialect.SQLite).Select("id").From(sql.Table("issues"))
	for _, p := range ps {
		p(s)
	}
	return s.Query()
}

func TestParse(t *testing.T) {
	v, err := Parse(nil, Text, None, Any)
	require.NoError(t, err)
	assert.False(t, v.IsSet())

	v, err = Parse([]string{"NoNe"}, Text, None, Any)
	require.NoError(t, err)
	assert.Equal(t, Wild[string](None), v)

	v, err = Parse([]string{"Upcoming"}, Text, None, Any)
	require.NoError(t, err)
	assert.Equal(t, Of("Upcoming"), v, "a wildcard the parameter does not allow is a value")

	n, err := Parse([]string{"1", "", "3"}, strconv.Atoi)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, n.Values)

	_, err = Parse([]string{"x"}, strconv.Atoi)
	assert.ErrorIs(t, err, ErrInvalid)

	e, err := Parse([]string{}, Text)
	require.NoError(t, err)
	assert.True(t, e.IsSet())
	q, _ := query(Predicates(Field[string]{Is: e}, Column[string, pred]("title")))
	assert.Contains(t, q, "FALSE", "an empty list matches nothing")
}

func TestColumn(t *testing.T) {
	r := Column[int, pred]("milestone_id")
	cases := []struct {
		name string
		f    Field[int]
		want string
		args []any
	}{
		{"unset", Field[int]{}, "SELECT `id` FROM `issues`", nil},
		{"none", Field[int]{Is: Wild[int](None)}, "SELECT `id` FROM `issues` WHERE `issues`.`milestone_id` IS NULL", nil},
		{"any", Field[int]{Is: Wild[int](Any)}, "SELECT `id` FROM `issues` WHERE NOT (`issues`.`milestone_id` IS NULL)", nil},
		{"values", Field[int]{Is: Of(1, 2)}, "SELECT `id` FROM `issues` WHERE `issues`.`milestone_id` IN (?, ?)", []any{1, 2}},
		{"not values", Field[int]{Not: Of(3)}, "SELECT `id` FROM `issues` WHERE NOT (`issues`.`milestone_id` IN (?))", []any{3}},
		{"unknown wildcard", Field[int]{Is: Wild[int](Started)}, "SELECT `id` FROM `issues` WHERE FALSE", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, args := query(Predicates(c.f, r))
			assert.Equal(t, c.want, q)
			assert.Equal(t, c.args, args)
		})
	}
}

func TestLinkAllOfAndNot(t *testing.T) {
	r := Link[int, pred]("issue_labels", "issue_id", "label_id", AllOf)
	q, args := query(Predicates(Field[int]{Is: Of(1, 2), Not: Of(3, 4)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE (`issues`.`id` IN (SELECT `issue_labels`.`issue_id` FROM `issue_labels` WHERE `issue_labels`.`label_id` IN (?))"+
		" AND `issues`.`id` IN (SELECT `issue_labels`.`issue_id` FROM `issue_labels` WHERE `issue_labels`.`label_id` IN (?)))"+
		" AND (NOT (`issues`.`id` IN (SELECT `issue_labels`.`issue_id` FROM `issue_labels` WHERE `issue_labels`.`label_id` IN (?, ?))))", q)
	assert.Equal(t, []any{1, 2, 3, 4}, args)

	q, _ = query(Predicates(Field[int]{Is: Wild[int](None)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE `issues`.`id` NOT IN (SELECT `issue_labels`.`issue_id` FROM `issue_labels`)", q)
}

func TestCustomWildcard(t *testing.T) {
	r := Column[int, pred]("milestone_id")
	r.Wildcards = map[Wildcard]func() pred{Upcoming: func() pred { return func(s *sql.Selector) { s.Where(sql.EQ(s.C("milestone_id"), 7)) } }}
	q, args := query(Predicates(Field[int]{Not: Wild[int](Upcoming)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE NOT (`issues`.`milestone_id` = ?)", q)
	assert.Equal(t, []any{7}, args)
}

func TestRange(t *testing.T) {
	a := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := a.Add(time.Hour)
	assert.False(t, Range{}.IsSet())
	var ps []pred
	for _, p := range (Range{After: &a, Before: &b}).Predicates("created_at") {
		ps = append(ps, p)
	}
	q, args := query(ps)
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE `issues`.`created_at` >= ? AND `issues`.`created_at` <= ?", q)
	assert.Equal(t, []any{a, b}, args)
}

// TestAllOfOnePredicate: under AllOf, All matches several values in one predicate; where it
// returns nil (it cannot), each value gets its own In; one value, and not[...], never use it.
func TestAllOfOnePredicate(t *testing.T) {
	r := Column[int, pred]("label_id")
	r.Mode = AllOf
	r.All = func(values []int) pred {
		if len(values) > 2 {
			return nil
		}
		return func(s *sql.Selector) { s.Where(sql.EQ(s.C("all_of"), len(values))) }
	}
	q, args := query(Predicates(Field[int]{Is: Of(1, 2)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE `issues`.`all_of` = ?", q)
	assert.Equal(t, []any{2}, args)

	q, _ = query(Predicates(Field[int]{Is: Of(1, 2, 3)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE `issues`.`label_id` IN (?) AND `issues`.`label_id` IN (?) AND `issues`.`label_id` IN (?)", q)

	q, _ = query(Predicates(Field[int]{Is: Of(1), Not: Of(2, 3)}, r))
	assert.Equal(t, "SELECT `id` FROM `issues` WHERE `issues`.`label_id` IN (?) AND (NOT (`issues`.`label_id` IN (?, ?)))", q)
}
