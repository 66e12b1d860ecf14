package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFromEnv_registryDefaults(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("ANVIL_DATA_DIR", dir)
	t.Setenv("ANVIL_EXTERNAL_URL", "https://git.example.com")
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, "file://"+dir+"/blobs", c.BlobStorageURL)
	assert.Equal(t, Registry{URL: "https://git.example.com"}, c.Registry, "the registry shares the API's host and listener")
	assert.Equal(t, "git.example.com", c.RegistryHost())
}

func TestFromEnv_registryOwnHost(t *testing.T) {
	clearEnv(t)
	t.Setenv("ANVIL_REGISTRY_URL", "https://registry.example.com:5050/")
	t.Setenv("ANVIL_REGISTRY_LISTEN", "0.0.0.0:5050")
	t.Setenv("ANVIL_BLOB_STORAGE_URL", "s3://bucket/anvil?region=eu-west-1")
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, Registry{URL: "https://registry.example.com:5050", Listen: "0.0.0.0:5050"}, c.Registry)
	assert.Equal(t, "registry.example.com:5050", c.RegistryHost())
	assert.Equal(t, "s3://bucket/anvil?region=eu-west-1", c.BlobStorageURL)
}

func TestFromEnv_registryInvalid(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"ANVIL_REGISTRY_URL", "registry.example.com", "must be an http:// or https:// URL"},
		{"ANVIL_REGISTRY_LISTEN", "5050", "ANVIL_REGISTRY_LISTEN"},
		{"ANVIL_BLOB_STORAGE_URL", "gs://bucket", "the scheme must be file or s3"},
		{"ANVIL_BLOB_STORAGE_URL", "file://relative/dir", "absolute path"},
		{"ANVIL_BLOB_STORAGE_URL", "s3:///prefix", "names its bucket"},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(tc.key, tc.value)
			_, err := FromEnv()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
