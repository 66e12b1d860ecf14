package params

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRequest_mergesQueryAndBodies(t *testing.T) {
	for _, tc := range []struct {
		desc, ct, body string
	}{
		{"json", "application/json", `{"name":"n","scopes":["api","read_user"],"attrs":{"k":"v"},"n":5,"b":true}`},
		{"form", "application/x-www-form-urlencoded", "name=n&scopes[]=api&scopes[]=read_user&attrs[k]=v&n=5&b=true"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/x?page=3&name=query", strings.NewReader(tc.body))
			r.Header.Set("Content-Type", tc.ct)
			tree, _, err := ParseRequest(r)
			require.NoError(t, err)
			b := NewBinder(tree, nil)
			assert.Equal(t, "n", *b.String("name"))
			assert.Equal(t, 3, *b.Int("page"))
			assert.Equal(t, []string{"api", "read_user"}, b.Strings("scopes"))
			assert.Equal(t, map[string]string{"k": "v"}, b.Hash("attrs"))
			assert.Equal(t, 5, *b.Int("n"))
			assert.True(t, *b.Bool("b"))
			assert.NoError(t, b.Err())
		})
	}
}

func TestBinder_errorsNameTheParameter(t *testing.T) {
	tree, err := ParseQuery("per_page=abc&active=maybe&name=%ff&sort=sideways")
	require.NoError(t, err)
	b := NewBinder(tree, nil)
	assert.Nil(t, b.Int("per_page"))
	assert.Nil(t, b.Bool("active"))
	assert.Nil(t, b.String("name"))
	assert.Nil(t, b.Enum("sort", "asc", "desc"))
	b.Require("title")
	assert.EqualError(t, b.Err(), "title is missing")
	b = NewBinder(tree, nil)
	b.Int("per_page")
	b.Bool("active")
	assert.EqualError(t, b.Err(), "per_page is invalid, active is invalid")
}

func TestBinder_arrayOfHashes(t *testing.T) {
	tree, err := ParseQuery("v[][key]=A&v[][value]=1&v[][key]=B&v[][value]=2")
	require.NoError(t, err)
	objs := NewBinder(tree, nil).Objects("v")
	require.Len(t, objs, 2)
	assert.Equal(t, map[string]any{"key": "A", "value": "1"}, objs[0])
	assert.Equal(t, map[string]any{"key": "B", "value": "2"}, objs[1])
}

func TestParseRequest_malformedJSON(t *testing.T) {
	r := httptest.NewRequest("POST", "/x", strings.NewReader(`{"name":`))
	r.Header.Set("Content-Type", "application/json")
	_, _, err := ParseRequest(r)
	var je *JSONError
	require.ErrorAs(t, err, &je)
}
