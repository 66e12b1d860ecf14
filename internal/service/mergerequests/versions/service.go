// Package versions records and reads the diff versions of merge requests: when a merge
// request is created and each time its source branch moves, a version stores the merge base,
// the source and target heads, the commits and the changed files with their patches (within
// the instance's diff limits), so an old version stays readable after a force push. Its head
// is kept alive by a keep-around ref, and refs/merge-requests/:iid/head follows the newest.
package versions

import (
	"context"
	"log/slog"

	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/jobs"
	"anvil/internal/service/settings"
	"anvil/internal/service/wire"
)

// Repositories opens a project's repository (the repository service).
type Repositories interface {
	Repository(p *ent.Project) (*git.Repository, error)
}

// Service records and reads diff versions.
type Service struct {
	client   *ent.Client
	repos    Repositories
	settings *settings.Service
	jobs     jobs.Enqueuer
	log      *slog.Logger
	// added is told of the commits a new version added (the "added N commits" system note).
	added []CommitsAdded
	// versions is told of every version that follows another (approvals reset on push).
	versions []VersionAdded
	// merged records a merge request merged by a push to its target branch.
	merged MergedByPush
}

// MergedByPush records the open merge request mrID as merged by a push of pusherID (nil:
// unknown) to its target branch that brought its head in through commit (the merge request
// service's MergedByPush).
type MergedByPush func(ctx context.Context, mrID int, pusherID *int, commit string) error

// VersionAdded is told, in the version's transaction, of a new version of mr that follows
// previous (never of the first one): the source or target branch moved. authorID is who moved
// it (nil: unknown).
type VersionAdded func(ctx context.Context, mr *ent.MergeRequest, authorID *int, previous, current *ent.MergeRequestDiff) error

// CommitsAdded is told, in the version's transaction, of the commits a new version of mr added
// since the previous one (never for the first version); authorID is who moved the branch (nil:
// unknown).
type CommitsAdded func(ctx context.Context, mr *ent.MergeRequest, authorID *int, previous, current *ent.MergeRequestDiff, added []*ent.MergeRequestDiffCommit) error

// Deps are the collaborators of the service; every one is required.
type Deps struct {
	Client   *ent.Client
	Repos    Repositories
	Settings *settings.Service
	// Jobs queues the refresh of merge requests whose source branch moved, in the push's
	// transaction.
	Jobs jobs.Enqueuer
	Log  *slog.Logger
}

// New returns the service.
func New(d Deps) *Service {
	wire.Require("merge request versions", wire.D("client", d.Client), wire.D("repositories", d.Repos),
		wire.D("settings", d.Settings), wire.D("jobs", d.Jobs), wire.D("logger", d.Log))
	return &Service{client: d.Client, repos: d.Repos, settings: d.Settings, jobs: d.Jobs, log: d.Log}
}

// OnCommitsAdded registers an observer of added commits (system notes); call it while wiring.
func (s *Service) OnCommitsAdded(f CommitsAdded) { s.added = append(s.added, f) }

// OnVersionAdded registers an observer of versions that follow another (approvals reset on
// push); call it while wiring.
func (s *Service) OnVersionAdded(f VersionAdded) { s.versions = append(s.versions, f) }

// OnMergedByPush sets who records a merge request merged by a push to its target branch (the
// merge request service, built after this one); call it while wiring. Without it such merge
// requests stay open.
func (s *Service) OnMergedByPush(f MergedByPush) { s.merged = f }
