package params

import (
	"strings"
	"time"

	"anvil/internal/nullable"
)

// Nullable is an update input's attribute as the request sent it: absent, null, or a value
// (internal/nullable's Value, named here so handlers read it beside the other readers). Every
// update handler reads attributes that may be cleared with these readers, so that a key sent
// as JSON null reaches the service as Null, as GitLab keeps it and sets the attribute to nil.
type Nullable[T any] = nullable.Value[T]

// nullableOf reads name: Absent when the key is missing, Null when it was sent as JSON null,
// else the value read (an invalid value records read's error and reads as Absent).
func nullableOf[T any](b *Binder, name string, read func(string) *T) Nullable[T] {
	v, ok := b.tree[name]
	switch {
	case !ok:
		return nullable.Absent[T]()
	case v == nil:
		return nullable.Null[T]()
	}
	return nullable.FromPtr(read(name))
}

// NullableString reads a string attribute that null clears.
func (b *Binder) NullableString(name string) Nullable[string] { return nullableOf(b, name, b.String) }

// NullableInt reads an integer attribute that null clears.
func (b *Binder) NullableInt(name string) Nullable[int] { return nullableOf(b, name, b.Int) }

// NullableBool reads a boolean attribute that null clears.
func (b *Binder) NullableBool(name string) Nullable[bool] { return nullableOf(b, name, b.Bool) }

// NullableEnum reads an attribute that must be one of values, or null.
func (b *Binder) NullableEnum(name string, values ...string) Nullable[string] {
	return nullableOf(b, name, func(n string) *string { return b.Enum(n, values...) })
}

// NullableTime reads a datetime attribute that null clears.
func (b *Binder) NullableTime(name string) Nullable[time.Time] { return nullableOf(b, name, b.Time) }

// NullableDate reads a date attribute that null clears. An empty (or blank) string is null too:
// Grape coerces it to nil, which is how form and query parameters clear a date.
func (b *Binder) NullableDate(name string) Nullable[time.Time] {
	if s, ok := b.tree[name].(string); ok && strings.TrimSpace(s) == "" {
		return nullable.Null[time.Time]()
	}
	return nullableOf(b, name, b.Date)
}
