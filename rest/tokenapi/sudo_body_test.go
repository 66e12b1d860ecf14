package tokenapi_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sudo is a parameter like any other: GitLab reads it from a form or JSON body as well as from
// the query string and the Sudo header, parameters first (the body's over the query's).
func TestAuthentication_sudoInTheBody(t *testing.T) {
	in := servertest.Start(t)
	_, aliceToken := in.NewUser(t, "alice")
	in.NewUser(t, "bob")

	send := func(t *testing.T, ct string, body io.Reader, query string, header map[string]string) *servertest.Response {
		t.Helper()
		req, err := http.NewRequest("POST", in.URL+"/api/v4/projects"+query, body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", ct)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
	}
	root := map[string]string{"PRIVATE-TOKEN": servertest.RootToken}
	owner := func(t *testing.T, r *servertest.Response) string {
		t.Helper()
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		return servertest.Object(t, r)["namespace"].(map[string]any)["full_path"].(string)
	}
	multipartBody := func(fields map[string]string) (string, io.Reader) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for k, v := range fields {
			require.NoError(t, w.WriteField(k, v))
		}
		require.NoError(t, w.Close())
		return w.FormDataContentType(), &buf
	}

	t.Run("JSON body", func(t *testing.T) {
		r := send(t, "application/json", strings.NewReader(`{"name":"p1","sudo":"alice"}`), "", root)
		assert.Equal(t, "alice", owner(t, r))
	})
	t.Run("form body", func(t *testing.T) {
		r := send(t, "application/x-www-form-urlencoded", strings.NewReader(url.Values{"name": {"p2"}, "sudo": {"alice"}}.Encode()), "", root)
		assert.Equal(t, "alice", owner(t, r))
	})
	t.Run("multipart body", func(t *testing.T) {
		ct, body := multipartBody(map[string]string{"name": "p3", "sudo": "alice"})
		assert.Equal(t, "alice", owner(t, send(t, ct, body, "", root)))
	})
	t.Run("a user id as a JSON number", func(t *testing.T) {
		r := send(t, "application/json", strings.NewReader(`{"name":"p4","sudo":2}`), "", root)
		assert.Equal(t, "alice", owner(t, r), "user 2 is alice (root is 1)")
	})
	t.Run("the body wins over the query, which wins over the header", func(t *testing.T) {
		hdr := map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "root"}
		r := send(t, "application/json", strings.NewReader(`{"name":"p5","sudo":"alice"}`), "?sudo=bob", hdr)
		assert.Equal(t, "alice", owner(t, r))
		r = send(t, "application/json", strings.NewReader(`{"name":"p6"}`), "?sudo=bob", hdr)
		assert.Equal(t, "bob", owner(t, r))
		r = send(t, "application/json", strings.NewReader(`{"name":"p7","sudo":null}`), "", map[string]string{"PRIVATE-TOKEN": servertest.RootToken, "Sudo": "bob"})
		assert.Equal(t, "bob", owner(t, r), "null in the body names nobody: the header applies")
	})
	t.Run("the same checks as the header", func(t *testing.T) {
		r := send(t, "application/json", strings.NewReader(`{"name":"p8","sudo":"root"}`), "", map[string]string{"PRIVATE-TOKEN": aliceToken})
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.JSONEq(t, `{"message":"403 Forbidden - Must be admin to use sudo"}`, string(r.Body))
		r = send(t, "application/json", strings.NewReader(`{"name":"p9","sudo":"nobody"}`), "", root)
		assert.Equal(t, http.StatusNotFound, r.Status, r.String())
		r = send(t, "application/json", strings.NewReader(`{"name":"p10","sudo":"alice"}`), "", nil)
		assert.Equal(t, http.StatusUnauthorized, r.Status, r.String())
		r = send(t, "application/json", strings.NewReader(`{"name":"p11","sudo":["alice"]}`), "", root)
		assert.Equal(t, http.StatusBadRequest, r.Status)
		assert.JSONEq(t, `{"error":"sudo is invalid"}`, string(r.Body))
	})
	t.Run("a malformed body is still the handler's 400", func(t *testing.T) {
		r := send(t, "application/json", strings.NewReader(`{"name":`), "", root)
		assert.Equal(t, http.StatusBadRequest, r.Status, r.String())
		assert.JSONEq(t, `{"error":"There was a problem in the JSON you submitted: unexpected EOF"}`, string(r.Body))
	})
}
