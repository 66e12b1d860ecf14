package nullable_test

import (
	"testing"

	"anvil/internal/nullable"

	"github.com/stretchr/testify/assert"
)

func TestValue_states(t *testing.T) {
	for _, tc := range []struct {
		name         string
		v            nullable.Value[string]
		given, null  bool
		ptr          *string
		applied      string
		wantSetCalls int
	}{
		{name: "absent", v: nullable.Absent[string](), applied: "kept"},
		{name: "zero value is absent", v: nullable.Value[string]{}, applied: "kept"},
		{name: "null", v: nullable.Null[string](), given: true, null: true, applied: "cleared"},
		{name: "value", v: nullable.Of("x"), given: true, ptr: ptr("x"), applied: "x", wantSetCalls: 1},
		{name: "empty value is a value", v: nullable.Of(""), given: true, ptr: ptr(""), applied: "", wantSetCalls: 1},
		{name: "from nil pointer", v: nullable.FromPtr[string](nil), applied: "kept"},
		{name: "from pointer", v: nullable.FromPtr(ptr("y")), given: true, ptr: ptr("y"), applied: "y", wantSetCalls: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.given, tc.v.Given())
			assert.Equal(t, tc.null, tc.v.IsNull())
			assert.Equal(t, tc.ptr, tc.v.Ptr())
			got, ok := tc.v.Get()
			assert.Equal(t, tc.ptr != nil, ok)
			if ok {
				assert.Equal(t, *tc.ptr, got)
			}
			stored, calls := "kept", 0
			tc.v.Apply(func(s string) { stored = s; calls++ }, func() { stored = "cleared" })
			assert.Equal(t, tc.applied, stored)
			assert.Equal(t, tc.wantSetCalls, calls)
		})
	}
}

func TestValue_ptrIsACopy(t *testing.T) {
	v := nullable.Of(1)
	p := v.Ptr()
	*p = 2
	got, _ := v.Get()
	assert.Equal(t, 1, got)
}

func ptr(s string) *string { return &s }
