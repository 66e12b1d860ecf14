package graph

import (
	"math"
	"reflect"
	"time"

	"anvil/ent"

	"entgo.io/contrib/entgql"
)

// errInvalidCursor is GitLab's answer to a cursor it cannot use.
func errInvalidCursor() error { return badInput("Please provide a valid cursor") }

// orderZero is the value an order's field holds on an empty node: its type is the type a
// cursor's value must have for that order.
func orderZero[T any](value func(*T) (ent.Value, error)) ent.Value {
	v, _ := value(new(T))
	return v
}

// checkCursors refuses a cursor whose value cannot be compared with the order's column (a map,
// a string where the order is by id, a time out of the databases' range): the cursor decoded,
// but the database would fail on it.
func checkCursors(zero ent.Value, cursors ...*entgql.Cursor[int]) error {
	want := reflect.TypeOf(zero)
	for want != nil && want.Kind() == reflect.Pointer {
		want = want.Elem()
	}
	for _, c := range cursors {
		if c == nil || c.Value == nil {
			continue
		}
		if !cursorValueFits(c.Value, want) {
			return errInvalidCursor()
		}
	}
	return nil
}

func cursorValueFits(v any, want reflect.Type) bool {
	if want == nil {
		return false
	}
	switch x := v.(type) {
	case time.Time:
		return want == reflect.TypeOf(time.Time{}) && x.Year() >= 1 && x.Year() <= 9999
	case string:
		return want.Kind() == reflect.String
	case bool:
		return want.Kind() == reflect.Bool
	case float32, float64:
		return want.Kind() == reflect.Float32 || want.Kind() == reflect.Float64
	case uint64:
		return isInt(want) && x <= math.MaxInt64
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32:
		return isInt(want)
	}
	return false
}

func isInt(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}
