package rest_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/require"
)

// request is a raw API request with full control over the body and headers.
type request struct {
	method, path, token string
	contentType         string
	body                io.Reader
	header              map[string]string
}

// send performs r against in. path is relative to /api/v4 unless it starts with "/-/" or "/api/".
func send(t testing.TB, in *servertest.Instance, r request) *servertest.Response {
	t.Helper()
	target := r.path
	if !strings.HasPrefix(target, "/-/") && !strings.HasPrefix(target, "/api/") {
		target = "/api/v4" + target
	}
	// The path goes out byte for byte (Opaque), so tests can send escapes that clients would
	// normalise or refuse, like %zz.
	path, query, _ := strings.Cut(target, "?")
	req, err := http.NewRequest(r.method, in.URL, r.body)
	require.NoError(t, err)
	req.URL.Opaque, req.URL.RawQuery = path, query
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.token != "" {
		req.Header.Set("PRIVATE-TOKEN", r.token)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// multipartBody encodes fields (in order, names may repeat) as multipart/form-data.
func multipartBody(t testing.TB, fields [][2]string) (string, io.Reader) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		require.NoError(t, w.WriteField(f[0], f[1]))
	}
	require.NoError(t, w.Close())
	return w.FormDataContentType(), &buf
}

// formBody encodes fields (in order, names may repeat) as application/x-www-form-urlencoded
// without reordering them, as Rack's bracket grouping depends on the order.
func formBody(fields [][2]string) string {
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		parts = append(parts, url.QueryEscape(f[0])+"="+url.QueryEscape(f[1]))
	}
	return strings.Join(parts, "&")
}

// ids returns the "id" fields of a list response, in order.
func ids(t testing.TB, r *servertest.Response) []string { return keysOf(t, r, "id") }

// keysOf returns one identifying field of every item of a list response, in order.
func keysOf(t testing.TB, r *servertest.Response, field string) []string {
	t.Helper()
	out := []string{}
	for _, m := range servertest.List(t, r) {
		v, ok := m[field]
		require.True(t, ok && v != nil, "item without %s: %v", field, m)
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// pathWith appends query parameters (in order) to path.
func pathWith(path string, kv ...string) string {
	v := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		v = append(v, url.QueryEscape(kv[i])+"="+url.QueryEscape(kv[i+1]))
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + strings.Join(v, "&")
}

// linkRe matches one entry of a Link header as clients split it.
var linkRe = regexp.MustCompile(`^<([^<>]+)>; rel="(prev|next|first|last)"$`)

// pageLink is one parsed entry of a Link header.
type pageLink struct {
	rel string
	url *url.URL
}

// parseLinks splits a Link header the way client-go does (on ", "), failing on anything a
// client could misread: a raw comma inside a URL, a missing rel, a relative URL.
func parseLinks(t testing.TB, header string) []pageLink {
	t.Helper()
	if header == "" {
		return nil
	}
	var out []pageLink
	for _, part := range strings.Split(header, ", ") {
		m := linkRe.FindStringSubmatch(part)
		require.NotNil(t, m, "malformed Link entry %q in %q", part, header)
		require.NotContains(t, m[1], ",", "raw comma in Link URL")
		u, err := url.Parse(m[1])
		require.NoError(t, err)
		require.True(t, u.IsAbs(), "relative Link URL %q", m[1])
		out = append(out, pageLink{rel: m[2], url: u})
	}
	return out
}

// rels returns the rel names of links, in order.
func rels(links []pageLink) []string {
	out := make([]string, 0, len(links))
	for _, l := range links {
		out = append(out, l.rel)
	}
	return out
}

// requireJSONError asserts a 4xx JSON error answer with exactly the given body.
func requireJSONError(t testing.TB, r *servertest.Response, status int, body string) {
	t.Helper()
	require.Equal(t, status, r.Status, r.String())
	require.Equal(t, "application/json", r.Header.Get("Content-Type"), r.String())
	require.JSONEq(t, body, string(r.Body))
}

// stringsReader returns a reader over s.
func stringsReader(s string) io.Reader { return strings.NewReader(s) }
