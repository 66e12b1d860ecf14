package repos

import (
	"context"
	"errors"
	"time"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/db"
	"anvil/internal/git/storage"
	"anvil/internal/jobs"
	"anvil/internal/service/storagemoves"
)

// SweepJob reconciles projects with the repositories on disk, repairing whatever a crash left
// half done. It runs at start and every hour (internal/service/jobs.go).
type SweepJob struct{}

// Kind names the job.
func (SweepJob) Kind() string { return "repository_sweep" }

// InsertOpts make the sweep unique while one is queued or running.
func (SweepJob) InsertOpts() jobs.InsertOpts {
	return jobs.InsertOpts{UniqueOpts: jobs.UniqueWhileQueued()}
}

// SetSweepGrace sets how old a leftover must be before the sweep repairs it: younger ones may
// be a creation still running on some replica. Default one hour.
func (s *Service) SetSweepGrace(d time.Duration) { s.sweepGrace = d }

// RunSweep works a SweepJob, in this order:
//   - removed and abandoned half-created directories ("+deleted", old "+creating+") go
//     (storage.SweepDeleted);
//   - a project whose creation never finished (still hidden after the grace period) is
//     deleted as a deletion does, its repository removal queued;
//   - a visible project without a repository gets an empty one (or its repository found at
//     its hashed path again);
//   - a repository that no project names, older than the grace period, is removed.
func (s *Service) RunSweep(ctx context.Context, _ SweepJob) error {
	if _, err := s.Storage.SweepDeleted(ctx, s.grace()); err != nil {
		return err
	}
	cutoff := time.Now().Add(-s.grace())
	c := db.ClientFrom(ctx, s.client)
	abandoned, err := c.Project.Query().
		Where(project.PendingDelete(true), project.CreatedAtLT(cutoff)).IDs(ctx)
	if err != nil {
		return err
	}
	if len(abandoned) > 0 {
		s.log.WarnContext(ctx, "removing projects whose creation never finished", "project_ids", abandoned)
		if err := db.WithTx(ctx, s.client, func(ctx context.Context, _ *ent.Client) error {
			return s.DeleteProjects(ctx, abandoned)
		}); err != nil {
			return err
		}
	}
	if err := s.repairMissing(ctx, c, cutoff); err != nil {
		return err
	}
	return s.removeOrphans(ctx, c, cutoff)
}

func (s *Service) grace() time.Duration {
	if s.sweepGrace > 0 {
		return s.sweepGrace
	}
	return time.Hour
}

// repairMissing gives visible projects older than cutoff whose repository is missing one: the
// repository at their hashed path when it is there, else a new empty one.
func (s *Service) repairMissing(ctx context.Context, c *ent.Client, cutoff time.Time) error {
	ps, err := c.Project.Query().Where(project.PendingDelete(false), project.CreatedAtLT(cutoff)).
		Select(project.FieldID, project.FieldRepositoryStorage, project.FieldDiskPath, project.FieldDefaultBranch).All(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.DiskPath != "" {
			if ok, err := s.Storage.Exists(p.RepositoryStorage, p.DiskPath); err != nil || ok {
				continue // an unknown storage is not the sweep's to repair
			}
			s.log.WarnContext(ctx, "project without its repository: creating an empty one", "project_id", p.ID, "disk_path", p.DiskPath)
			if _, err := s.Storage.Create(ctx, p.RepositoryStorage, p.DiskPath, defaultBranchOr(p.DefaultBranch)); err != nil && !errors.Is(err, storage.ErrRepositoryExists) {
				return err
			}
			continue
		}
		rel := storage.HashedPath(int64(p.ID))
		adopted := false
		for _, name := range s.Storage.Names() {
			if ok, _ := s.Storage.Exists(name, rel); ok {
				s.log.WarnContext(ctx, "project without a recorded repository: found it", "project_id", p.ID, "storage", name)
				if err := c.Project.UpdateOneID(p.ID).SetRepositoryStorage(name).SetDiskPath(rel).Exec(ctx); err != nil {
					return err
				}
				adopted = true
				break
			}
		}
		if !adopted {
			s.log.WarnContext(ctx, "project without a repository: creating an empty one", "project_id", p.ID)
			if err := s.Create(ctx, p, false, p.DefaultBranch, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeOrphans removes the repositories older than cutoff that no project names.
func (s *Service) removeOrphans(ctx context.Context, c *ent.Client, cutoff time.Time) error {
	found, err := s.Storage.Repositories(ctx)
	if err != nil {
		return err
	}
	for _, f := range found {
		if f.ModTime.After(cutoff) {
			continue
		}
		named, err := c.Project.Query().Where(project.RepositoryStorage(f.Storage), project.DiskPath(f.RelPath)).Exist(ctx)
		if err != nil {
			return err
		}
		if named {
			continue
		}
		// A storage move's copy in progress, or its source not yet removed, is no orphan.
		if inUse, err := storagemoves.RepositoryInUse(ctx, c, f.Storage, f.RelPath); err != nil {
			return err
		} else if inUse {
			continue
		}
		s.log.WarnContext(ctx, "removing a repository no project names", "storage", f.Storage, "disk_path", f.RelPath)
		if err := s.Storage.Remove(ctx, f.Storage, f.RelPath); err != nil && !errors.Is(err, storage.ErrRepositoryNotFound) {
			return err
		}
	}
	return nil
}

func defaultBranchOr(b string) string {
	if b == "" {
		return "main"
	}
	return b
}
