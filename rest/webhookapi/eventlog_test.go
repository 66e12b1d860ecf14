package webhookapi_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventLog_masksSecrets: a hook whose URL carries credentials and a URL variable is
// delivered to the interpolated URL with basic authentication, while its log (stored and
// listed) shows the URL as configured with the credentials masked (GitLab's *****:*****), the
// variable as {name}, the token and custom header values as [REDACTED], and the request data
// without email addresses; a failed delivery's error names neither the URL nor the variable's
// value; a log row stored before masking is masked at start and when listed.
func TestEventLog_masksSecrets(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	rcv := newReceiver(t)
	p := f.ProjectWithReadme(t, "masked", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/hooks"
	hostPort := strings.TrimPrefix(rcv.URL, "http://")
	r := f.Do(t, "POST", base, "maintainer", `{"url":"http://alice:pa55word@`+hostPort+`/{seg}","token":"tok-s3cret",
		"url_variables":[{"key":"seg","value":"path-s3cret"}],"custom_headers":[{"key":"X-Extra","value":"hdr-s3cret"}]}`)
	require.Equal(t, 201, r.Status, r.String())
	id := strconv.Itoa(int(servertest.Object(t, r)["id"].(float64)))

	r = f.Do(t, "POST", base+"/"+id+"/test/push_events", "maintainer", nil)
	require.Equal(t, 201, r.Status, r.String())
	d := rcv.wait(t, 1)[0]
	assert.Equal(t, "tok-s3cret", d.Header.Get("X-Gitlab-Token"))
	assert.Equal(t, "hdr-s3cret", d.Header.Get("X-Extra"))
	assert.True(t, strings.HasPrefix(d.Header.Get("Authorization"), "Basic "), "credentials go as basic authentication")
	commit := d.Body["commits"].([]any)[0].(map[string]any)
	email := commit["author"].(map[string]any)["email"].(string)
	require.Contains(t, email, "@", "the receiver gets the commit author's email")

	r = f.Do(t, "GET", base+"/"+id+"/events", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	events := servertest.List(t, r)
	require.Len(t, events, 1)
	ev := events[0]
	assert.Equal(t, "http://*****:*****@"+hostPort+"/{seg}", ev["url"])
	rh := ev["request_headers"].(map[string]any)
	assert.Equal(t, "[REDACTED]", rh["X-Gitlab-Token"])
	assert.Equal(t, "[REDACTED]", rh["X-Service-Token"])
	assert.Equal(t, "[REDACTED]", rh["X-Extra"])
	assert.NotContains(t, rh, "Authorization")
	logged := ev["request_data"].(map[string]any)["commits"].([]any)[0].(map[string]any)
	assert.Equal(t, "[REDACTED]", logged["author"].(map[string]any)["email"])
	for _, secret := range []string{"alice", "pa55word", "path-s3cret", "tok-s3cret", "hdr-s3cret", email} {
		assert.NotContains(t, r.String(), secret)
	}

	// What the database holds.
	ctx := context.Background()
	var url, headers, data string
	require.NoError(t, f.In.DB.SQL.QueryRowContext(ctx, "SELECT url, request_headers, request_data FROM web_hook_logs WHERE web_hook_id = "+id).
		Scan(&url, &headers, &data))
	assert.Equal(t, "http://*****:*****@"+hostPort+"/{seg}", url)
	for _, secret := range []string{"alice", "pa55word", "path-s3cret", "tok-s3cret", "hdr-s3cret", email} {
		assert.NotContains(t, url+headers+data, secret)
	}

	// A failed delivery's error: the receiver's port is closed.
	r = f.Do(t, "PUT", base+"/"+id, "maintainer", `{"url":"http://127.0.0.1:9/{seg}"}`)
	require.Equal(t, 200, r.Status, r.String())
	r = f.Do(t, "POST", base+"/"+id+"/test/push_events", "maintainer", nil)
	require.Equal(t, 422, r.Status, r.String())
	assert.NotContains(t, r.String(), "path-s3cret")
	assert.NotContains(t, r.String(), "127.0.0.1:9/")
	var msg string
	require.NoError(t, f.In.DB.SQL.QueryRowContext(ctx, "SELECT internal_error_message FROM web_hook_logs WHERE web_hook_id = "+id+
		" AND response_status = 'internal error'").Scan(&msg))
	assert.NotEmpty(t, msg)
	assert.NotContains(t, msg, "path-s3cret")

	// A row stored before masking.
	_, err := f.In.DB.SQL.ExecContext(ctx, "UPDATE web_hook_logs SET url = 'http://bob:old-pass@example.com/x' WHERE web_hook_id = "+id)
	require.NoError(t, err)
	r = f.Do(t, "GET", base+"/"+id+"/events", "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.NotContains(t, r.String(), "old-pass")
	assert.Equal(t, "http://*****:*****@example.com/x", servertest.List(t, r)[0]["url"])
	require.NoError(t, f.In.Services.Webhooks.EncryptAtRest(ctx))
	var n int
	require.NoError(t, f.In.DB.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM web_hook_logs WHERE url LIKE '%old-pass%'").Scan(&n))
	assert.Zero(t, n)
}
