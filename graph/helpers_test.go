package graph_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gql posts a query with variables to /api/graphql as token (empty: anonymous).
func gql(t *testing.T, in *servertest.Instance, token, query string, vars map[string]any) *servertest.Response {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	return in.Do(t, "POST", "/api/graphql", token, string(body))
}

// data runs a query that must succeed and returns its data decoded into a generic map.
func data(t *testing.T, in *servertest.Instance, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	r := gql(t, in, token, query, vars)
	require.Equal(t, http.StatusOK, r.Status, r.String())
	var out struct {
		Data   map[string]any `json:"data"`
		Errors []any          `json:"errors"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &out), r.String())
	require.Empty(t, out.Errors, r.String())
	return out.Data
}

// get sends a raw GET to /api/graphql with query parameters.
func get(t *testing.T, in *servertest.Instance, token string, params url.Values) *servertest.Response {
	t.Helper()
	return in.Do(t, "GET", "/api/graphql?"+params.Encode(), token, nil)
}

// raw sends a request with an arbitrary content type and body.
func raw(t *testing.T, in *servertest.Instance, method, path, contentType, body string, header http.Header) *servertest.Response {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// assertJSON checks a response's status, content type and exact JSON body.
func assertJSON(t *testing.T, r *servertest.Response, status int, body string) {
	t.Helper()
	assert.Equal(t, status, r.Status, r.String())
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.JSONEq(t, body, string(r.Body))
}

// path walks a decoded JSON value along keys and indexes.
func path(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

// decodeList decodes a REST JSON array of objects.
func decodeList(t *testing.T, r *servertest.Response) []map[string]any {
	t.Helper()
	var out []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &out), r.String())
	return out
}

// decodeObject decodes a REST JSON object.
func decodeObject(t *testing.T, r *servertest.Response) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &out), r.String())
	return out
}
