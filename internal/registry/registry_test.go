package registry

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStorageParameters(t *testing.T) {
	for _, tc := range []struct {
		url    string
		driver string
		params map[string]any
	}{
		{"file:///srv/anvil/blobs", "filesystem", map[string]any{"rootdirectory": "/srv/anvil/blobs/registry"}},
		{"s3://bucket", "s3aws", map[string]any{"bucket": "bucket", "rootdirectory": "/registry", "region": "us-east-1"}},
		{"s3://bucket/anvil/prod?region=eu-west-1", "s3aws", map[string]any{"bucket": "bucket", "rootdirectory": "/anvil/prod/registry", "region": "eu-west-1"}},
		{"s3://images?endpoint=http://127.0.0.1:9000&use_path_style=true", "s3aws", map[string]any{
			"bucket": "images", "rootdirectory": "/registry", "region": "us-east-1",
			"regionendpoint": "http://127.0.0.1:9000", "secure": false, "forcepathstyle": true}},
		{"s3://images?endpoint=minio.internal:9000&s3ForcePathStyle=true", "s3aws", map[string]any{
			"bucket": "images", "rootdirectory": "/registry", "region": "us-east-1",
			"regionendpoint": "https://minio.internal:9000", "forcepathstyle": true}},
	} {
		driver, params, err := StorageParameters(tc.url)
		require.NoError(t, err, tc.url)
		assert.Equal(t, tc.driver, driver, tc.url)
		assert.Equal(t, tc.params, params, tc.url)
	}
	_, _, err := StorageParameters("gs://bucket")
	assert.Error(t, err)
}

// The registry's secrets are created once and kept: a second start (another replica sharing the
// directory) signs tokens the first accepts, with the same HTTP secret.
func TestSecretsPersist(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Dir: filepath.Join(dir, "registry"), BlobStorageURL: "file://" + filepath.Join(dir, "blobs")}
	a, err := New(context.Background(), cfg)
	require.NoError(t, err)
	defer a.Close()
	secret, err := os.ReadFile(filepath.Join(cfg.Dir, "http-secret"))
	require.NoError(t, err)
	b, err := New(context.Background(), cfg)
	require.NoError(t, err)
	defer b.Close()
	again, err := os.ReadFile(filepath.Join(cfg.Dir, "http-secret"))
	require.NoError(t, err)
	assert.Equal(t, secret, again)
	info, err := os.Stat(filepath.Join(cfg.Dir, "token-key.pem"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	tok, err := a.Keys().Sign(TokenClaims{Subject: "alice", TTL: time.Minute,
		Access: []Access{{Type: "repository", Name: "alice/app", Actions: []string{"pull"}}}})
	require.NoError(t, err)
	grants, err := b.Keys().Verify(tok)
	require.NoError(t, err)
	assert.True(t, Allows(grants, "alice/app", "pull"))
	assert.False(t, Allows(grants, "alice/app", "push"))
	assert.False(t, Allows(grants, "alice/other", "pull"))

	expired, err := a.Keys().Sign(TokenClaims{TTL: -2 * time.Minute})
	require.NoError(t, err)
	_, err = b.Keys().Verify(expired)
	assert.Error(t, err, "an expired token")
	assert.True(t, a.NotificationAuthorized("Bearer "+b.notifySecret))
	assert.False(t, a.NotificationAuthorized("Bearer nope"))
}
