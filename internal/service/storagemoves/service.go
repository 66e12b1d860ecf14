// Package storagemoves moves projects' repositories between storages as GitLab's project
// repository storage moves do: a move is a row with a state machine, scheduled with the project
// made read-only in one transaction, and run by a job (Run) that copies the repository to the
// destination storage, verifies it, switches the project over and removes the source.
package storagemoves

import (
	"context"
	"log/slog"
	"sync"

	"anvil/ent"
	"anvil/internal/git/storage"
	"anvil/internal/service/projects"
	"anvil/internal/service/wire"
)

// Scheduler runs a scheduled move (Service.Run) in the background. ScheduleStorageMove is
// called inside the transaction that scheduled the move: the run must happen only once that
// transaction commits, and again after a crash until Run returns nil.
type Scheduler interface {
	ScheduleStorageMove(ctx context.Context, moveID int) error
}

// Service is the storage move service.
type Service struct {
	client    *ent.Client
	projects  *projects.Service
	storage   *storage.Storage
	scheduler Scheduler
	log       *slog.Logger
	// running holds the ids of the moves this process is running: a second Run of one of them
	// returns at once (the first finishes it), so that an inline run and a resumed one never
	// copy over each other. Across processes the job queue runs one job of a move at a time.
	running sync.Map
}

// Deps are the service's collaborators; every one is required.
type Deps struct {
	Client   *ent.Client
	Projects *projects.Service
	Storage  *storage.Storage
	// Scheduler runs moves once scheduled (InlineScheduler until the job queue exists).
	Scheduler Scheduler
	Log       *slog.Logger
}

// New returns the storage move service.
func New(d Deps) *Service {
	wire.Require("storagemoves", wire.D("client", d.Client), wire.D("projects", d.Projects),
		wire.D("storage", d.Storage), wire.D("scheduler", d.Scheduler), wire.D("logger", d.Log))
	return &Service{client: d.Client, projects: d.Projects, storage: d.Storage, scheduler: d.Scheduler, log: d.Log}
}

// KnownStorage reports whether name is a configured storage.
func (s *Service) KnownStorage(name string) bool {
	for _, n := range s.storage.Names() {
		if n == name {
			return true
		}
	}
	return false
}

// Storages lists the configured storage names, sorted.
func (s *Service) Storages() []string { return s.storage.Names() }
