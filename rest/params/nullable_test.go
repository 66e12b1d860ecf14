package params

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func jsonBinder(t *testing.T, body string) *Binder {
	t.Helper()
	r := httptest.NewRequest("PUT", "/x", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	tree, _, err := ParseRequest(r)
	require.NoError(t, err)
	return NewBinder(tree, nil)
}

// A key sent as null is Null (clear), a missing key Absent (keep), a value a value; the plain
// readers keep reading null as absent.
func TestBinder_nullableReaders(t *testing.T) {
	b := jsonBinder(t, `{"s":null,"s2":"x","e":"","i":null,"i2":7,"bl":null,"bl2":false,
		"en":null,"en2":"b","d":null,"d2":"2030-01-02","d3":"","tm":null,"tm2":"2030-01-02T03:04:05Z"}`)

	assert.True(t, b.NullableString("s").IsNull())
	assert.False(t, b.NullableString("missing").Given())
	assert.Equal(t, "x", *b.NullableString("s2").Ptr())
	empty := b.NullableString("e")
	assert.False(t, empty.IsNull(), "an empty string is a value for strings")
	assert.Equal(t, "", *empty.Ptr())

	assert.True(t, b.NullableInt("i").IsNull())
	assert.Equal(t, 7, *b.NullableInt("i2").Ptr())
	assert.True(t, b.NullableBool("bl").IsNull())
	assert.Equal(t, false, *b.NullableBool("bl2").Ptr())
	assert.True(t, b.NullableEnum("en", "a", "b").IsNull())
	assert.Equal(t, "b", *b.NullableEnum("en2", "a", "b").Ptr())

	assert.True(t, b.NullableDate("d").IsNull())
	assert.Equal(t, time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC), *b.NullableDate("d2").Ptr())
	assert.True(t, b.NullableDate("d3").IsNull(), "an empty date is null, as Grape coerces it")
	assert.True(t, b.NullableTime("tm").IsNull())
	assert.Equal(t, time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC), b.NullableTime("tm2").Ptr().UTC())
	require.NoError(t, b.Err())

	// The plain readers are unchanged: null reads as absent.
	assert.Nil(t, b.String("s"))
	assert.Nil(t, b.Int("i"))
	assert.False(t, b.Has("s"))
}

func TestBinder_nullableReadersRefuseInvalidValues(t *testing.T) {
	b := jsonBinder(t, `{"i":"abc","en":"c","d":"tomorrow","bl":"perhaps"}`)
	assert.False(t, b.NullableInt("i").Given())
	assert.False(t, b.NullableEnum("en", "a", "b").Given())
	assert.False(t, b.NullableDate("d").Given())
	assert.False(t, b.NullableBool("bl").Given())
	require.EqualError(t, b.Err(), "i is invalid, en does not have a valid value, d is invalid, bl is invalid")
}

func TestBinder_nullableFromAForm(t *testing.T) {
	r := httptest.NewRequest("PUT", "/x", strings.NewReader("description=&expires_at="))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tree, _, err := ParseRequest(r)
	require.NoError(t, err)
	b := NewBinder(tree, nil)
	d := b.NullableString("description")
	assert.Equal(t, "", *d.Ptr(), "a form cannot send null: an empty string is a value")
	assert.True(t, b.NullableDate("expires_at").IsNull())
}
