package config

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Registry configures the embedded container registry.
type Registry struct {
	// URL is the registry's public base URL (ANVIL_REGISTRY_URL): its host is where image
	// names point (container_registry_image_prefix) and where clients send /v2/ requests.
	// Default: the external URL (the registry shares the API's host and listener).
	URL string
	// Listen is a separate address for the registry (ANVIL_REGISTRY_LISTEN); empty serves
	// /v2/ on the API's listener.
	Listen string
}

// blobDir is where the blob backend keeps its files when ANVIL_BLOB_STORAGE_URL is not set
// (<data dir>/blobs).
const blobDir = "blobs"

// registryFromEnv reads the registry and blob storage settings.
func (c *Config) registryFromEnv() {
	c.Registry.URL = os.Getenv("ANVIL_REGISTRY_URL")
	c.Registry.Listen = os.Getenv("ANVIL_REGISTRY_LISTEN")
	c.BlobStorageURL = os.Getenv("ANVIL_BLOB_STORAGE_URL")
}

// normalizeRegistry fills the registry's defaults once DataDir and ExternalURL are known.
func (c *Config) normalizeRegistry() error {
	if c.BlobStorageURL == "" {
		c.BlobStorageURL = "file://" + filepath.ToSlash(filepath.Join(c.DataDir, blobDir))
	}
	u, err := url.Parse(c.BlobStorageURL)
	if err != nil {
		return fmt.Errorf("ANVIL_BLOB_STORAGE_URL %q: %w", c.BlobStorageURL, err)
	}
	switch u.Scheme {
	case "file":
		if (u.Host != "" && u.Host != "localhost") || u.Path == "" || !filepath.IsAbs(filepath.FromSlash(u.Path)) {
			return fmt.Errorf("ANVIL_BLOB_STORAGE_URL %q: a file URL needs an absolute path (file:///srv/blobs)", c.BlobStorageURL)
		}
	case "s3":
		if u.Host == "" {
			return fmt.Errorf("ANVIL_BLOB_STORAGE_URL %q: an s3 URL names its bucket (s3://bucket/prefix?region=...)", c.BlobStorageURL)
		}
	default:
		return fmt.Errorf("ANVIL_BLOB_STORAGE_URL %q: the scheme must be file or s3", c.BlobStorageURL)
	}
	if c.Registry.URL == "" {
		c.Registry.URL = c.ExternalURL
	}
	c.Registry.URL = strings.TrimRight(c.Registry.URL, "/")
	ru, err := url.Parse(c.Registry.URL)
	if err != nil || (ru.Scheme != "http" && ru.Scheme != "https") || ru.Host == "" {
		return fmt.Errorf("ANVIL_REGISTRY_URL %q: must be an http:// or https:// URL", c.Registry.URL)
	}
	if c.Registry.Listen != "" {
		if _, _, err := net.SplitHostPort(c.Registry.Listen); err != nil {
			return fmt.Errorf("ANVIL_REGISTRY_LISTEN %q: %w", c.Registry.Listen, err)
		}
	}
	return nil
}

// RegistryHost is the registry's host and port as image names spell it ("registry.example.com",
// "localhost:5000"): GitLab's registry host_port.
func (c *Config) RegistryHost() string {
	u, err := url.Parse(c.Registry.URL)
	if err != nil {
		return ""
	}
	return u.Host
}
