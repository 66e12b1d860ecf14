// Package containerregistry holds the container registry's operations: who may pull, push and
// delete which images (the registry's token service), the image repositories of projects and
// groups with their tags, deleting repositories and tags (one by one and by GitLab's cleanup
// rules), and the background work behind them (repository removal, tag cleanup, garbage
// collection). The images themselves live in the embedded registry (internal/registry).
package containerregistry

import (
	"log/slog"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/jobs"
	"anvil/internal/registry"
	"anvil/internal/service/groups"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Jobs queues this domain's background work on the durable job queue (internal/jobs): a job
// enqueued inside a transaction is part of it. Each job reads its subject afresh and is
// idempotent; the handlers are registered in internal/service/jobs.go.
type Jobs = jobs.Enqueuer

// Deps are the service's collaborators.
type Deps struct {
	Policy   *authz.Policy
	Projects *projects.Service
	Groups   *groups.Service
	Settings *settings.Service
	Registry *registry.Registry
	Jobs     Jobs
	Log      *slog.Logger
	// RegistryHost is the registry's host and port as image names spell it.
	RegistryHost string
	// ExternalURL is the API's base URL (delete_api_path).
	ExternalURL string
	// GCGrace is how young a blob, layer link or untagged manifest must be for garbage
	// collection to keep it although nothing tagged references it (pushes in progress upload
	// blobs before the manifest that references them). Default 24 hours.
	GCGrace time.Duration
}

// Service is the container registry service.
type Service struct {
	client *ent.Client
	Deps
}

// New returns the container registry service.
func New(client *ent.Client, d Deps) *Service {
	wire.Require("containerregistry", wire.D("client", client), wire.D("policy", d.Policy),
		wire.D("projects", d.Projects), wire.D("groups", d.Groups), wire.D("settings", d.Settings),
		wire.D("registry", d.Registry), wire.D("jobs", d.Jobs))
	if d.GCGrace <= 0 {
		d.GCGrace = 24 * time.Hour
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{client: client, Deps: d}
}

// Kinds of this domain's jobs. They are stored with the jobs: never rename one.
const (
	KindDeleteRepository = "container_repository_delete"
	KindCleanupTags      = "container_repository_cleanup_tags"
	KindGarbageCollect   = "container_registry_garbage_collect"
	KindDeleteImages     = "container_registry_delete_images"
)

// DeleteRepositoryJob removes one image repository: its images from the registry, then its row.
type DeleteRepositoryJob struct {
	RepositoryID int `json:"repository_id"`
}

// Kind names the job.
func (DeleteRepositoryJob) Kind() string { return KindDeleteRepository }

// CleanupTagsJob deletes a repository's tags by GitLab's bulk deletion rules.
type CleanupTagsJob struct {
	RepositoryID int           `json:"repository_id"`
	Params       CleanupParams `json:"params"`
}

// Kind names the job.
func (CleanupTagsJob) Kind() string { return KindCleanupTags }

// DeleteImagesJob removes image repositories from the registry by path, after the rows that
// named them are gone (a deleted project's images).
type DeleteImagesJob struct {
	Paths []string `json:"paths"`
}

// Kind names the job.
func (DeleteImagesJob) Kind() string { return KindDeleteImages }

// GarbageCollectJob reclaims the registry storage nothing references any more. It runs daily
// and after repository deletions, one at a time.
type GarbageCollectJob struct{}

// Kind names the job.
func (GarbageCollectJob) Kind() string { return KindGarbageCollect }

// InsertOpts make garbage collection unique while one is queued or running.
func (GarbageCollectJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued()}
}

// InsertOpts make a repository's deletion unique while one is queued or running.
func (DeleteRepositoryJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued()}
}
