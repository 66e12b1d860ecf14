package config

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clearEnv unsets every variable FromEnv reads.
func clearEnv(t *testing.T) {
	for _, k := range []string{"ANVIL_LISTEN", "ANVIL_DATA_DIR", "ANVIL_DATABASE_URL", "ANVIL_EXTERNAL_URL",
		"ANVIL_INITIAL_ROOT_PASSWORD", "ANVIL_INITIAL_ROOT_TOKEN", "ANVIL_LOG_LEVEL", "ANVIL_REPOSITORY_STORAGES",
		"ANVIL_REGISTRY_URL", "ANVIL_REGISTRY_LISTEN", "ANVIL_BLOB_STORAGE_URL",
		"ANVIL_GIT_AUTH_BAN_ENABLED", "ANVIL_GIT_AUTH_BAN_MAX_RETRY", "ANVIL_GIT_AUTH_BAN_FIND_TIME",
		"ANVIL_GIT_AUTH_BAN_TIME", "ANVIL_GIT_AUTH_BAN_IP_ALLOWLIST", "ANVIL_MONITORING_IP_ALLOWLIST"} {
		t.Setenv(k, "")
	}
}

func TestFromEnv_defaults(t *testing.T) {
	clearEnv(t)
	c, err := FromEnv()
	require.NoError(t, err)
	abs, err := filepath.Abs("./data")
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", c.Listen)
	assert.Equal(t, abs, c.DataDir)
	assert.Equal(t, "", c.DatabaseURL, "empty means embedded SQLite")
	assert.Equal(t, "http://127.0.0.1:8080", c.ExternalURL)
	assert.Equal(t, "info", c.LogLevel)
	assert.Equal(t, map[string]string{"default": filepath.Join(abs, "repositories")}, c.RepositoryStorages)
}

func TestFromEnv_overrides(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	t.Setenv("ANVIL_LISTEN", "0.0.0.0:9090")
	t.Setenv("ANVIL_DATA_DIR", dir)
	t.Setenv("ANVIL_DATABASE_URL", "postgres://u@db/anvil")
	t.Setenv("ANVIL_EXTERNAL_URL", "https://git.example.com/")
	t.Setenv("ANVIL_INITIAL_ROOT_PASSWORD", "pw")
	t.Setenv("ANVIL_INITIAL_ROOT_TOKEN", "glpat-x")
	t.Setenv("ANVIL_LOG_LEVEL", "debug")
	t.Setenv("ANVIL_REPOSITORY_STORAGES", "default=/srv/repos, fast=/ssd/repos")
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, Config{
		Listen: "0.0.0.0:9090", DataDir: dir, DatabaseURL: "postgres://u@db/anvil",
		ExternalURL: "https://git.example.com", InitialRootPassword: "pw", InitialRootToken: "glpat-x",
		LogLevel: "debug", RepositoryStorages: map[string]string{"default": "/srv/repos", "fast": "/ssd/repos"},
		BlobStorageURL: "file://" + dir + "/blobs", Registry: Registry{URL: "https://git.example.com"},
		GitAuthBan: GitAuthBan{MaxRetry: 30, FindTime: 3 * time.Minute, BanTime: time.Hour,
			Allowlist: prefixes("127.0.0.1/32", "::1/128")},
		Monitoring: Monitoring{IPAllowlist: prefixes("127.0.0.0/8", "::1/128")},
	}, c)
}

func TestFromEnv_externalURLFollowsListen(t *testing.T) {
	clearEnv(t)
	t.Setenv("ANVIL_LISTEN", "127.0.0.1:3000")
	c, err := FromEnv()
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:3000", c.ExternalURL)
}

func TestFromEnv_invalid(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"ANVIL_EXTERNAL_URL", "git.example.com", "must start with http:// or https://"},
		{"ANVIL_EXTERNAL_URL", "ftp://git.example.com", "must start with http:// or https://"},
		{"ANVIL_REPOSITORY_STORAGES", "default", "is not name=directory"},
		{"ANVIL_REPOSITORY_STORAGES", "=/srv", "is not name=directory"},
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
