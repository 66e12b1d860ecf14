package snippets

import (
	"context"
	"errors"

	"anvil/ent"
	"anvil/ent/snippet"
	"anvil/internal/db"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
)

// RemoveRepositoryJob removes the repository of a deleted snippet. It carries where the
// repository is, because the snippet's row is gone when it runs.
type RemoveRepositoryJob struct {
	SnippetID int    `json:"snippet_id"`
	Storage   string `json:"storage"`
	DiskPath  string `json:"disk_path"`
}

// Kind names the job.
func (RemoveRepositoryJob) Kind() string { return "snippet_repository_remove" }

// InsertOpts: as the project repositories' removal, many attempts, one per path at once.
func (RemoveRepositoryJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued(), MaxAttempts: 25}
}

// queueRemoval queues the removal of sn's repository in the transaction of ctx, so the
// repository goes once the rows are gone and never when the deletion rolls back.
func (s *Service) queueRemoval(ctx context.Context, sn *ent.Snippet) error {
	if sn.DiskPath == "" {
		return nil
	}
	return s.jobs.Enqueue(ctx, RemoveRepositoryJob{SnippetID: sn.ID, Storage: sn.RepositoryStorage, DiskPath: sn.DiskPath})
}

// RunRemoveRepository works a RemoveRepositoryJob (storage.Remove). A repository already gone
// is done; one that a snippet still names is kept.
func (s *Service) RunRemoveRepository(ctx context.Context, j RemoveRepositoryJob) error {
	live, err := db.ClientFrom(ctx, s.client).Snippet.Query().
		Where(snippet.RepositoryStorage(j.Storage), snippet.DiskPath(j.DiskPath)).Exist(ctx)
	if err != nil {
		return err
	}
	if live {
		s.log.WarnContext(ctx, "snippet repository removal skipped: a snippet uses it", "snippet_id", j.SnippetID, "disk_path", j.DiskPath)
		return nil
	}
	err = s.storage.Remove(ctx, j.Storage, j.DiskPath)
	if errors.Is(err, storage.ErrRepositoryNotFound) {
		return nil
	}
	return err
}
