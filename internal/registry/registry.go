// Package registry embeds the container registry (distribution/distribution v3, the registry
// GitLab's own is built from) in Anvil: its HTTP handler for /v2/, its storage on the blob
// backend (files or S3-compatible object storage), the key that signs its bearer tokens, and
// the reads, deletions and garbage collection the API's registry operations need. It knows
// nothing of projects or users: internal/service/containerregistry decides who may do what.
package registry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/distribution/distribution/v3"
	"github.com/distribution/distribution/v3/configuration"
	"github.com/distribution/distribution/v3/registry/handlers"
	"github.com/distribution/distribution/v3/registry/storage"
	storagedriver "github.com/distribution/distribution/v3/registry/storage/driver"
	"github.com/distribution/distribution/v3/registry/storage/driver/factory"
	"github.com/sirupsen/logrus"

	// The token access controller and the storage drivers register themselves.
	_ "github.com/distribution/distribution/v3/registry/auth/token"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/filesystem"
	_ "github.com/distribution/distribution/v3/registry/storage/driver/s3-aws"
)

// Service is the audience of registry tokens: the service parameter of the token request
// (GitLab's AUDIENCE).
const Service = "container_registry"

// Issuer is the issuer of registry tokens (GitLab's default registry issuer).
const Issuer = "gitlab-issuer"

// EventsPath is where the registry delivers its notifications (GitLab's endpoint), on the
// API's listener.
const EventsPath = "/api/v4/container_registry_event/events"

// storagePrefix is where the registry keeps its data inside the blob backend.
const storagePrefix = "registry"

// Config configures the embedded registry.
type Config struct {
	// Dir holds the registry's secrets: the HTTP secret shared by replicas for upload state,
	// the token signing key and its JWKS, the notification secret (<data dir>/registry).
	Dir string
	// BlobStorageURL is the blob backend: file:///dir or s3://bucket/prefix?region=...
	BlobStorageURL string
	// Realm is the token endpoint clients are sent to ({base_url}/jwt/auth).
	Realm string
	// NotifyURL receives the registry's events (pushed and deleted manifests); empty sends none.
	NotifyURL string
	// Auth turns token authentication on; off, the registry serves anyone (benchmarks only).
	Auth bool
	// Log receives the registry's warnings.
	Log *slog.Logger
}

// Registry is the embedded registry.
type Registry struct {
	app    *handlers.App
	driver storagedriver.StorageDriver
	ns     distribution.Namespace
	keys   *Keys
	cfg    Config
	// notifySecret authenticates the registry's event deliveries to Anvil.
	notifySecret string
	// gcMu keeps one garbage collection at a time in this process (the job queue keeps one
	// across replicas).
	gcMu sync.Mutex
}

// logrusOnce quiets distribution's global logger once: it logs every request at info and every
// routine 404 HEAD of a push at error.
var logrusOnce sync.Once

// New builds the registry: its secrets are read from cfg.Dir (created on first start), its
// storage opened, and distribution's application configured.
func New(ctx context.Context, cfg Config) (r *Registry, err error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	logrusOnce.Do(func() { logrus.SetLevel(logrus.FatalLevel) })
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("registry dir: %w", err)
	}
	secret, err := readOrCreateSecret(filepath.Join(cfg.Dir, "http-secret"))
	if err != nil {
		return nil, err
	}
	notifySecret, err := readOrCreateSecret(filepath.Join(cfg.Dir, "notification-secret"))
	if err != nil {
		return nil, err
	}
	keys, err := LoadKeys(cfg.Dir)
	if err != nil {
		return nil, err
	}
	driverName, params, err := StorageParameters(cfg.BlobStorageURL)
	if err != nil {
		return nil, err
	}
	driver, err := factory.Create(ctx, driverName, params)
	if err != nil {
		return nil, fmt.Errorf("registry storage: %w", err)
	}
	ns, err := storage.NewRegistry(ctx, driver, storage.EnableDelete)
	if err != nil {
		return nil, fmt.Errorf("registry storage: %w", err)
	}

	// Start from the defaults distribution's configuration parser fills in (catalog and tag
	// list limits, ...), then set what Anvil decides.
	c, err := configuration.Parse(strings.NewReader("version: 0.1\nstorage:\n  inmemory: {}\n"))
	if err != nil {
		return nil, err
	}
	c.Log.Level = "error"
	// Non-distributable layers (OCI's foreign layers) name where they are served: any http(s)
	// URL is accepted, as the distribution spec expects; their blobs are never pushed here.
	c.Validation.Manifests.URLs.Allow = []string{`^https?://`}
	c.HTTP.Secret = secret
	c.Storage = configuration.Storage{
		driverName: configuration.Parameters(params),
		"delete":   configuration.Parameters{"enabled": true},
		"maintenance": configuration.Parameters{"uploadpurging": map[any]any{
			"enabled": true, "age": "168h", "interval": "24h", "dryrun": false,
		}},
		"cache": configuration.Parameters{"blobdescriptor": "inmemory"},
	}
	if cfg.Auth {
		c.Auth = configuration.Auth{"token": configuration.Parameters{
			"realm": cfg.Realm, "service": Service, "issuer": Issuer, "jwks": keys.JWKSPath,
		}}
	}
	if cfg.NotifyURL != "" {
		c.Notifications = configuration.Notifications{Endpoints: []configuration.Endpoint{{
			Name:    "anvil",
			URL:     cfg.NotifyURL,
			Headers: http.Header{"Authorization": {"Bearer " + notifySecret}},
			Timeout: 10 * time.Second, Threshold: 5, Backoff: time.Second,
			// Blob events and pulls say nothing Anvil records.
			IgnoredMediaTypes: []string{"application/octet-stream"},
			Ignore:            configuration.Ignore{Actions: []string{"pull", "mount"}},
		}}}
	}
	// NewApp panics on a configuration it cannot use.
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("registry: %v", p)
		}
	}()
	app := handlers.NewApp(ctx, c)
	return &Registry{app: app, driver: driver, ns: ns, keys: keys, cfg: cfg, notifySecret: notifySecret}, nil
}

// ServeHTTP serves the registry API (/v2/...).
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.app.ServeHTTP(w, req) }

// Close stops the registry's background work (upload purging, event delivery).
func (r *Registry) Close() error { return r.app.Shutdown() }

// Keys returns the token signing keys.
func (r *Registry) Keys() *Keys { return r.keys }

// NotificationAuthorized reports whether an event delivery carries the registry's secret.
func (r *Registry) NotificationAuthorized(header string) bool {
	return constantTimeEqual(header, "Bearer "+r.notifySecret)
}

// StorageParameters maps a blob storage URL onto a distribution storage driver and its
// parameters, the registry's data under registry/ in it. file:///dir uses the filesystem
// driver; s3://bucket/prefix uses distribution's own S3 driver (multipart uploads that resume
// across requests and replicas), with the query parameters region, endpoint, use_path_style
// (or s3ForcePathStyle), disable_https, and credentials from the AWS environment.
func StorageParameters(raw string) (string, map[string]any, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, fmt.Errorf("blob storage URL: %w", err)
	}
	switch u.Scheme {
	case "file":
		return "filesystem", map[string]any{
			"rootdirectory": filepath.Join(filepath.FromSlash(u.Path), storagePrefix),
		}, nil
	case "s3":
		q := u.Query()
		p := map[string]any{
			"bucket":        u.Host,
			"rootdirectory": "/" + path.Join(strings.Trim(u.Path, "/"), storagePrefix),
			"region":        q.Get("region"),
		}
		if p["region"] == "" {
			p["region"] = "us-east-1"
		}
		if ep := q.Get("endpoint"); ep != "" {
			if !strings.Contains(ep, "://") {
				ep = "https://" + ep
			}
			p["regionendpoint"] = ep
			if strings.HasPrefix(ep, "http://") {
				p["secure"] = false
			}
		}
		if v := firstOf(q, "use_path_style", "s3ForcePathStyle"); v != "" {
			p["forcepathstyle"] = v == "true" || v == "1"
		}
		if q.Get("disable_https") == "true" {
			p["secure"] = false
		}
		return "s3aws", p, nil
	}
	return "", nil, fmt.Errorf("blob storage URL %q: unsupported scheme", raw)
}

func firstOf(q url.Values, keys ...string) string {
	for _, k := range keys {
		if v := q.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// isNotFound reports distribution's ways of saying something does not exist.
func isNotFound(err error) bool {
	var pnf storagedriver.PathNotFoundError
	if errors.As(err, &pnf) {
		return true
	}
	var ru distribution.ErrRepositoryUnknown
	var tu distribution.ErrTagUnknown
	var mu distribution.ErrManifestUnknownRevision
	var mu2 distribution.ErrManifestUnknown
	return errors.As(err, &ru) || errors.As(err, &tu) || errors.As(err, &mu) || errors.As(err, &mu2) ||
		errors.Is(err, distribution.ErrBlobUnknown)
}
