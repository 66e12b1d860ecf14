// Package filter holds GitLab's list-filter semantics once, for every finder: a parameter is
// unset, a wildcard (None, Any, and finder-specific ones such as a milestone's Upcoming and
// Started), or a list of values; each has a negated twin (GitLab's not[...]); dates come as
// ranges. Adapters fill a Field from REST parameters or GraphQL arguments; a finder turns it into
// predicates by describing, once per attribute, how a row relates to its values (a Relation).
// Nothing here knows about issues, merge requests or HTTP.
package filter

import (
	"errors"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
)

// Wildcard is a keyword standing for "no value", "some value" or a finder-specific set.
type Wildcard string

// The wildcards GitLab accepts (case-insensitively) in its filters.
const (
	None     Wildcard = "none"
	Any      Wildcard = "any"
	Upcoming Wildcard = "upcoming" // milestones: the next active milestone to start
	Started  Wildcard = "started"  // milestones: active and already started
)

// ErrInvalid is returned by Parse for a value the converter refuses or a wildcard the
// parameter does not accept.
var ErrInvalid = errors.New("invalid filter value")

// Value is one side of a filter: unset, a wildcard, or values.
type Value[T any] struct {
	set      bool
	Wildcard Wildcard // empty when Values holds the filter
	Values   []T
}

// Of is the filter matching values (how several combine is the Relation's Mode).
func Of[T any](values ...T) Value[T] { return Value[T]{set: true, Values: values} }

// Wild is the filter matching a wildcard.
func Wild[T any](w Wildcard) Value[T] { return Value[T]{set: true, Wildcard: w} }

// IsSet reports whether the filter was given.
func (v Value[T]) IsSet() bool { return v.set }

// Parse reads a parameter's raw values (nil: not given). A single value spelling one of the
// allowed wildcards, in any case, is that wildcard; every other value goes through convert.
// An empty list is "given, matching nothing", as GitLab treats labels="" and iids[]=.
func Parse[T any](raw []string, convert func(string) (T, error), allowed ...Wildcard) (Value[T], error) {
	if raw == nil {
		return Value[T]{}, nil
	}
	if len(raw) == 1 {
		w := Wildcard(strings.ToLower(strings.TrimSpace(raw[0])))
		for _, a := range allowed {
			if w == a {
				return Wild[T](w), nil
			}
		}
	}
	out := make([]T, 0, len(raw))
	for _, s := range raw {
		if s == "" {
			continue
		}
		v, err := convert(s)
		if err != nil {
			return Value[T]{}, ErrInvalid
		}
		out = append(out, v)
	}
	return Of(out...), nil
}

// Text is the identity converter for Parse.
func Text(s string) (string, error) { return s, nil }

// Field is one attribute's filter and its negation: GitLab's x and not[x].
type Field[T any] struct {
	Is  Value[T]
	Not Value[T]
}

// IsSet reports whether either side was given.
func (f Field[T]) IsSet() bool { return f.Is.IsSet() || f.Not.IsSet() }

// Mode says how several values of one filter combine.
type Mode int

const (
	// OneOf matches rows having any of the values (ids, states, an assignee list).
	OneOf Mode = iota
	// AllOf matches rows having every value (GitLab's labels=a,b).
	AllOf
)

// Relation is how a finder tests its rows against one attribute.
type Relation[T any, P ~func(*sql.Selector)] struct {
	// In matches rows having at least one of the values.
	In func(values []T) P
	// Empty matches rows without any value: None; its negation is Any.
	Empty func() P
	// Wildcards are the finder's other keywords (Upcoming, Started).
	Wildcards map[Wildcard]func() P
	// Mode combines several values of Is; Not always excludes rows having any of its values.
	Mode Mode
	// All, when set, matches rows having every one of several values in one predicate (a
	// grouped subquery the planner can start from) instead of one In per value; it returns nil
	// where it cannot, and In per value is used then.
	All func(values []T) P
}

// Predicates returns the predicates of f under r, to be ANDed. A wildcard the relation does
// not know matches nothing, so a finder that forgets one can never widen a list.
func Predicates[T any, P ~func(*sql.Selector)](f Field[T], r Relation[T, P]) []P {
	var out []P
	if f.Is.IsSet() {
		out = append(out, r.match(f.Is))
	}
	if f.Not.IsSet() {
		// not[labels]=a,b excludes rows having any of them, whatever the mode of Is.
		excluded := r.in(f.Not.Values)
		if f.Not.Wildcard != "" {
			excluded = r.match(f.Not)
		}
		out = append(out, P(sql.NotPredicates(excluded)))
	}
	return out
}

func (r Relation[T, P]) in(values []T) P {
	if len(values) == 0 {
		return nothing[P]()
	}
	return r.In(values)
}

func (r Relation[T, P]) match(v Value[T]) P {
	switch v.Wildcard {
	case "":
		if r.Mode == OneOf || len(v.Values) <= 1 {
			return r.in(v.Values)
		}
		if r.All != nil {
			if p := r.All(v.Values); p != nil {
				return p
			}
		}
		each := make([]P, len(v.Values))
		for i, x := range v.Values {
			each[i] = r.In([]T{x})
		}
		return P(sql.AndPredicates(each...))
	case None:
		if r.Empty != nil {
			return r.Empty()
		}
	case Any:
		if r.Empty != nil {
			return P(sql.NotPredicates(r.Empty()))
		}
	}
	if fn, ok := r.Wildcards[v.Wildcard]; ok {
		return fn()
	}
	return nothing[P]()
}

// nothing matches no row.
func nothing[P ~func(*sql.Selector)]() P {
	return P(func(s *sql.Selector) { s.Where(sql.False()) })
}

// Column is the Relation of a nullable column holding at most one value per row (an issue's
// milestone_id, a merge request's assignee): None is NULL.
func Column[T any, P ~func(*sql.Selector)](name string) Relation[T, P] {
	return Relation[T, P]{
		In: func(values []T) P {
			return P(func(s *sql.Selector) { s.Where(sql.In(s.C(name), anys(values)...)) })
		},
		Empty: func() P { return P(func(s *sql.Selector) { s.Where(sql.IsNull(s.C(name))) }) },
	}
}

// Link is the Relation of a join table (issue_labels, issue_assignees): table links the row's
// id (column owner) to values in column value. Several values under AllOf need one link each.
func Link[T any, P ~func(*sql.Selector)](table, owner, value string, mode Mode) Relation[T, P] {
	return Relation[T, P]{
		Mode: mode,
		In: func(values []T) P {
			return P(func(s *sql.Selector) {
				t := sql.Table(table)
				sub := sql.Select(t.C(owner)).From(t).Where(sql.In(t.C(value), anys(values)...))
				s.Where(sql.In(s.C("id"), sub))
			})
		},
		Empty: func() P {
			return P(func(s *sql.Selector) {
				t := sql.Table(table)
				s.Where(sql.NotIn(s.C("id"), sql.Select(t.C(owner)).From(t)))
			})
		},
	}
}

func anys[T any](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// Range is a pair of inclusive time bounds: GitLab's x_after and x_before.
type Range struct {
	After, Before *time.Time
}

// IsSet reports whether either bound was given.
func (r Range) IsSet() bool { return r.After != nil || r.Before != nil }

// Predicates returns the bounds on column as predicates to be ANDed.
func (r Range) Predicates(column string) []func(*sql.Selector) {
	var out []func(*sql.Selector)
	if r.After != nil {
		t := *r.After
		out = append(out, func(s *sql.Selector) { s.Where(sql.GTE(s.C(column), t)) })
	}
	if r.Before != nil {
		t := *r.Before
		out = append(out, func(s *sql.Selector) { s.Where(sql.LTE(s.C(column), t)) })
	}
	return out
}
