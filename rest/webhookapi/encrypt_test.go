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

// TestHookSecrets_encryptedAtRest: a hook's URL and token are stored sealed (no plaintext in
// the database) and read back in the clear; a row still in plaintext (written before
// encryption) reads as it is and is sealed by EncryptAtRest, which leaves sealed rows alone.
func TestHookSecrets_encryptedAtRest(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	allowLoopback(t, f.In)
	p := f.Project(t, "sealed", "private")
	base := "/projects/" + strconv.Itoa(p.ID) + "/hooks"
	r := f.Do(t, "POST", base, "maintainer", `{"url":"http://127.0.0.1:9/hook?key=url-secret","token":"tok-secret"}`)
	require.Equal(t, 201, r.Status, r.String())
	h := servertest.Object(t, r)
	assert.Equal(t, "http://127.0.0.1:9/hook?key=url-secret", h["url"])
	id := strconv.Itoa(int(h["id"].(float64)))

	stored := func() (string, string) {
		t.Helper()
		var url, token string
		require.NoError(t, f.In.DB.SQL.QueryRowContext(context.Background(),
			"SELECT url, token FROM web_hooks WHERE id = "+id).Scan(&url, &token))
		return url, token
	}
	url, token := stored()
	assert.True(t, strings.HasPrefix(url, "enc:v1:"), url)
	assert.True(t, strings.HasPrefix(token, "enc:v1:"), token)
	assert.NotContains(t, url, "url-secret")
	assert.NotContains(t, token, "tok-secret")
	r = f.Do(t, "GET", base+"/"+id, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "http://127.0.0.1:9/hook?key=url-secret", servertest.Object(t, r)["url"])

	// A row written before encryption.
	_, err := f.In.DB.SQL.ExecContext(context.Background(),
		"UPDATE web_hooks SET url = 'http://127.0.0.1:9/legacy', token = 'old-token' WHERE id = "+id)
	require.NoError(t, err)
	r = f.Do(t, "GET", base+"/"+id, "maintainer", nil)
	require.Equal(t, 200, r.Status, r.String())
	assert.Equal(t, "http://127.0.0.1:9/legacy", servertest.Object(t, r)["url"])
	require.NoError(t, f.In.Services.Webhooks.EncryptAtRest(context.Background()))
	url, token = stored()
	assert.True(t, strings.HasPrefix(url, "enc:v1:"), url)
	assert.True(t, strings.HasPrefix(token, "enc:v1:"), token)
	require.NoError(t, f.In.Services.Webhooks.EncryptAtRest(context.Background()))
	again, _ := stored()
	assert.Equal(t, url, again, "sealed rows are left alone")
	r = f.Do(t, "GET", base+"/"+id, "maintainer", nil)
	assert.Equal(t, "http://127.0.0.1:9/legacy", servertest.Object(t, r)["url"])
	hooks, err := f.In.Services.Webhooks.Receivers(context.Background(), webhooksTarget(p), pushEvent())
	require.NoError(t, err)
	require.Len(t, hooks, 1)
	assert.Equal(t, "old-token", hooks[0].Token, "deliveries read the token in the clear")
}
