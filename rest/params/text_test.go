package params

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinder_refusesTextNoRecordCanHold checks that NUL bytes and invalid UTF-8 fail as
// parameter errors in every reader, including array elements and hash keys and values, which
// PostgreSQL would otherwise refuse with a server error.
func TestBinder_refusesTextNoRecordCanHold(t *testing.T) {
	tree, err := ParseQuery("s=a%00&arr[]=ok&arr[]=%ff&csv=a,%00&h[k]=%00&hk[%ff]=v&ok[]=a&okh[k]=v")
	require.NoError(t, err)
	b := NewBinder(tree, nil)
	assert.Nil(t, b.String("s"))
	assert.Nil(t, b.Strings("arr"))
	assert.Nil(t, b.Strings("csv"))
	assert.Nil(t, b.Hash("h"))
	assert.Nil(t, b.Hash("hk"))
	assert.Equal(t, []string{"a"}, b.Strings("ok"))
	assert.Equal(t, map[string]string{"k": "v"}, b.Hash("okh"))
	require.Error(t, b.Err())
	assert.Equal(t, "s is invalid, arr is invalid, csv is invalid, h is invalid, hk is invalid", b.Err().Error())
}

// TestParseRequest_jsonMustBeUTF8 checks that a JSON body with invalid UTF-8 is malformed
// rather than silently decoded with replacement characters.
func TestParseRequest_jsonMustBeUTF8(t *testing.T) {
	r := httptest.NewRequest("POST", "/x", strings.NewReader("{\"name\":\"a\xffb\"}"))
	r.Header.Set("Content-Type", "application/json")
	_, _, err := ParseRequest(r)
	var je *JSONError
	require.True(t, errors.As(err, &je), "%v", err)

	r = httptest.NewRequest("POST", "/x", strings.NewReader(`{"name":"a\u00e9b"}`))
	r.Header.Set("Content-Type", "application/json")
	tree, _, err := ParseRequest(r)
	require.NoError(t, err)
	assert.Equal(t, "aéb", *NewBinder(tree, nil).String("name"))
}
