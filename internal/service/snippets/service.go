// Package snippets holds personal and project snippets (GitLab's Snippets and Project snippets
// APIs): finders with the snippet visibility rules of internal/authz, reading a snippet's files,
// and creating, updating and deleting snippets. Each snippet's files live in a bare repository
// of its own (GitLab's versioned snippets) under the storage's "@snippets" tree, written only
// through internal/git: every change of files is one commit on the snippet's default branch.
package snippets

import (
	"context"
	"log/slog"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Observer is told, in the deletion's transaction (ctx carries it), of snippets deleted (with
// their project too), so that what other domains keep about them goes with them (notes).
type Observer interface {
	SnippetsDeleted(ctx context.Context, ids []int) error
}

// Observers tells each observer in turn (the first refusal stops the deletion).
type Observers []Observer

// SnippetsDeleted tells each observer.
func (os Observers) SnippetsDeleted(ctx context.Context, ids []int) error {
	for _, o := range os {
		if err := o.SnippetsDeleted(ctx, ids); err != nil {
			return err
		}
	}
	return nil
}

// Service is the snippet service.
type Service struct {
	client   *ent.Client
	policy   *authz.Policy
	projects *projects.Service
	settings *settings.Service
	storage  *storage.Storage
	jobs     jobs.Enqueuer
	log      *slog.Logger
	observer Observer
}

// Deps are the snippet service's collaborators; every one is required.
type Deps struct {
	Client   *ent.Client
	Policy   *authz.Policy
	Projects *projects.Service
	// Settings restricts the visibility levels non-administrators may choose.
	Settings *settings.Service
	// Storage places the snippets' repositories.
	Storage *storage.Storage
	// Jobs queues the removal of a deleted snippet's repository in the deletion's transaction.
	Jobs jobs.Enqueuer
	Log  *slog.Logger
	// Observer is told of deleted snippets.
	Observer Observer
}

// New returns the snippet service.
func New(d Deps) *Service {
	wire.Require("snippets", wire.D("client", d.Client), wire.D("policy", d.Policy), wire.D("projects", d.Projects), wire.D("settings", d.Settings),
		wire.D("storage", d.Storage), wire.D("jobs", d.Jobs), wire.D("logger", d.Log), wire.D("observer", d.Observer))
	return &Service{client: d.Client, policy: d.Policy, projects: d.Projects, settings: d.Settings, storage: d.Storage, jobs: d.Jobs, log: d.Log,
		observer: d.Observer}
}
