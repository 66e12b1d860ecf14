package repos

import (
	"context"
	"errors"
	"fmt"
	"time"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/db"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
)

// RemoveRepositoryJob removes the repository of a deleted project. It carries where the
// repository is, because the project's row is gone when it runs.
type RemoveRepositoryJob struct {
	ProjectID int    `json:"project_id"`
	Storage   string `json:"storage"`
	DiskPath  string `json:"disk_path"`
}

// Kind names the job.
func (RemoveRepositoryJob) Kind() string { return "repository_remove" }

// InsertOpts: a removal is worth many attempts (a busy or full disk), and one per path at once.
func (RemoveRepositoryJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued(), MaxAttempts: 25}
}

// queueRemoval queues the removal of p's repository in the transaction of ctx.
func (s *Service) queueRemoval(ctx context.Context, p *ent.Project) error {
	if p.DiskPath == "" {
		return nil
	}
	return s.jobs.Enqueue(ctx, RemoveRepositoryJob{ProjectID: p.ID, Storage: p.RepositoryStorage, DiskPath: p.DiskPath})
}

// RunRemoveRepository works a RemoveRepositoryJob: the repository is moved aside and removed
// (storage.Remove). A repository already gone is done; one that a live project names is kept.
func (s *Service) RunRemoveRepository(ctx context.Context, j RemoveRepositoryJob) error {
	live, err := db.ClientFrom(ctx, s.client).Project.Query().
		Where(project.RepositoryStorage(j.Storage), project.DiskPath(j.DiskPath), project.PendingDelete(false)).
		Exist(ctx)
	if err != nil {
		return err
	}
	if live {
		s.log.WarnContext(ctx, "repository removal skipped: a project uses it", "project_id", j.ProjectID, "disk_path", j.DiskPath)
		return nil
	}
	release, err := s.holdHousekeeping(ctx, j)
	if err != nil {
		return err
	}
	defer release()
	err = s.Storage.Remove(ctx, j.Storage, j.DiskPath)
	if errors.Is(err, storage.ErrRepositoryNotFound) {
		return nil
	}
	return err
}

// housekeepingWait bounds how long a removal waits for a housekeeping of the repository to end
// before it gives up and is retried.
const housekeepingWait = time.Minute

// holdHousekeeping waits until no housekeeping runs in the repository and keeps any from
// starting until release: a project deleted right after a push (its first push queues a
// housekeeping) would otherwise have its repository removed under the housekeeping's git
// processes, which recreate the directories they write into, leaving a directory no project
// owns.
func (s *Service) holdHousekeeping(ctx context.Context, j RemoveRepositoryJob) (func(), error) {
	none := func() {}
	repo, err := s.Storage.Repository(j.Storage, j.DiskPath)
	if err != nil {
		return none, nil // Remove reports it
	}
	ctx, cancel := context.WithTimeout(ctx, housekeepingWait)
	defer cancel()
	for {
		if !repo.Exists() {
			return none, nil
		}
		release, ok, err := repo.HoldHousekeeping()
		if err != nil && repo.Exists() {
			return none, err
		}
		if ok {
			return release, nil
		}
		select {
		case <-ctx.Done():
			return none, fmt.Errorf("repository removal waits for its housekeeping: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
