// Package config reads Anvil's configuration from the environment.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config is the server configuration. Every field has an embedded default, so an empty
// environment starts a working server on SQLite under ./data.
type Config struct {
	Listen              string // ANVIL_LISTEN, default 127.0.0.1:8080
	DataDir             string // ANVIL_DATA_DIR, default ./data
	DatabaseURL         string // ANVIL_DATABASE_URL; empty means embedded SQLite in DataDir
	ExternalURL         string // ANVIL_EXTERNAL_URL, base of every web_url; default http://<listen>
	InitialRootPassword string // ANVIL_INITIAL_ROOT_PASSWORD
	InitialRootToken    string // ANVIL_INITIAL_ROOT_TOKEN
	LogLevel            string // ANVIL_LOG_LEVEL: debug, info (default), warn, error
	// RepositoryStorages maps storage names to directories (ANVIL_REPOSITORY_STORAGES,
	// "default=/srv/repos,fast=/ssd/repos"); default: {"default": <data dir>/repositories}.
	RepositoryStorages map[string]string
	// BlobStorageURL is the blob backend (ANVIL_BLOB_STORAGE_URL): file:///dir (default
	// <data dir>/blobs) or s3://bucket/prefix?region=...&endpoint=...&use_path_style=true for
	// S3-compatible object storage. The container registry keeps its data under registry/.
	BlobStorageURL string
	// Registry configures the embedded container registry.
	Registry Registry
	// GitAuthBan bans addresses that fail git or registry authentication too often.
	GitAuthBan GitAuthBan
	// Monitoring restricts the monitoring endpoints to an IP allowlist.
	Monitoring Monitoring
	// Jobs tunes the background job queue.
	Jobs Jobs
}

// FromEnv reads the configuration from environment variables, filling in defaults.
func FromEnv() (Config, error) {
	c := Config{
		Listen:              getenv("ANVIL_LISTEN", "127.0.0.1:8080"),
		DataDir:             getenv("ANVIL_DATA_DIR", "./data"),
		DatabaseURL:         os.Getenv("ANVIL_DATABASE_URL"),
		ExternalURL:         os.Getenv("ANVIL_EXTERNAL_URL"),
		InitialRootPassword: os.Getenv("ANVIL_INITIAL_ROOT_PASSWORD"),
		InitialRootToken:    os.Getenv("ANVIL_INITIAL_ROOT_TOKEN"),
		LogLevel:            getenv("ANVIL_LOG_LEVEL", "info"),
	}
	c.registryFromEnv()
	if err := c.securityFromEnv(); err != nil {
		return c, err
	}
	if err := c.jobsFromEnv(); err != nil {
		return c, err
	}
	if v := os.Getenv("ANVIL_REPOSITORY_STORAGES"); v != "" {
		c.RepositoryStorages = map[string]string{}
		for _, part := range strings.Split(v, ",") {
			name, dir, ok := strings.Cut(strings.TrimSpace(part), "=")
			if !ok || name == "" || dir == "" {
				return c, fmt.Errorf("ANVIL_REPOSITORY_STORAGES: %q is not name=directory", part)
			}
			c.RepositoryStorages[name] = dir
		}
	}
	return c, c.Normalize()
}

// Normalize fills defaults derived from other fields and checks the values.
func (c *Config) Normalize() error {
	if c.Listen == "" {
		c.Listen = "127.0.0.1:8080"
	}
	if c.DataDir == "" {
		c.DataDir = "./data"
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return fmt.Errorf("data dir %q: %w", c.DataDir, err)
	}
	c.DataDir = abs
	if len(c.RepositoryStorages) == 0 {
		c.RepositoryStorages = map[string]string{"default": filepath.Join(abs, "repositories")}
	}
	for name, dir := range c.RepositoryStorages {
		if c.RepositoryStorages[name], err = filepath.Abs(dir); err != nil {
			return fmt.Errorf("repository storage %q: %w", name, err)
		}
	}
	if c.ExternalURL == "" {
		c.ExternalURL = "http://" + c.Listen
	}
	c.ExternalURL = strings.TrimRight(c.ExternalURL, "/")
	c.normalizeSecurity()
	if !strings.HasPrefix(c.ExternalURL, "http://") && !strings.HasPrefix(c.ExternalURL, "https://") {
		return fmt.Errorf("ANVIL_EXTERNAL_URL %q: must start with http:// or https://", c.ExternalURL)
	}
	return c.normalizeRegistry()
}

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
