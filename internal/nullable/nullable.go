// Package nullable holds the one shape of an update input's attribute: absent (keep what is
// stored), sent as null (clear it: GitLab keeps a key sent as null and sets the attribute to
// nil), or sent with a value. REST fills it from request bodies (rest/params' Nullable
// readers), GraphQL from optional arguments; services read it without knowing which.
package nullable

// Value is an attribute of an update input: absent, null, or a value. The zero Value is
// absent.
type Value[T any] struct {
	state state
	value T
}

type state uint8

const (
	absent state = iota
	null
	set
)

// Absent is an attribute the request did not mention.
func Absent[T any]() Value[T] { return Value[T]{} }

// Null is an attribute the request sent as null: clear it.
func Null[T any]() Value[T] { return Value[T]{state: null} }

// Of is an attribute the request sent with value v.
func Of[T any](v T) Value[T] { return Value[T]{state: set, value: v} }

// FromPtr is Of(*p), or Absent when p is nil.
func FromPtr[T any](p *T) Value[T] {
	if p == nil {
		return Absent[T]()
	}
	return Of(*p)
}

// Given reports whether the request mentioned the attribute, as null or with a value.
func (v Value[T]) Given() bool { return v.state != absent }

// IsNull reports whether the request sent the attribute as null.
func (v Value[T]) IsNull() bool { return v.state == null }

// Get returns the value and true when one was sent; the zero value and false when the
// attribute is absent or null.
func (v Value[T]) Get() (T, bool) { return v.value, v.state == set }

// Ptr is the value sent, nil when the attribute is absent or null.
func (v Value[T]) Ptr() *T {
	if v.state != set {
		return nil
	}
	x := v.value
	return &x
}

// Apply writes the attribute onto a builder: setter with the value, clear for null, nothing
// when absent. It is how a service turns an update input into ent's SetX / ClearX calls.
func (v Value[T]) Apply(setter func(T), clear func()) {
	switch v.state {
	case set:
		setter(v.value)
	case null:
		clear()
	}
}
