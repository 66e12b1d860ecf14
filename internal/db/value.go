package db

import (
	"strconv"

	"entgo.io/ent/dialect/sql"
)

// IntValue reads an integer from a dynamic column an ent query added with a modifier (as an
// entity's Value returns it): drivers scan int64, bytes or NULL into it.
func IntValue(v any, err error) (int, bool) {
	if err != nil {
		return 0, false
	}
	if u, ok := v.(*sql.UnknownType); ok && u != nil {
		v = *u
	}
	switch x := v.(type) {
	case int64:
		return int(x), true
	case int:
		return x, true
	case []byte:
		n, err := strconv.Atoi(string(x))
		return n, err == nil
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}
