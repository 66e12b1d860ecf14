package repos

import (
	"context"
	"errors"
	"fmt"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/git/storage"
)

// Housekeep optimizes the repository of project projectID for reads (git.Repository.Housekeep:
// repacks with bitmaps, the commit-graph with changed-path Bloom filters, packed refs, pruning,
// each when the repository's state calls for it). It is what the housekeeping job runs after
// pushes. A project that no longer exists, or has no repository, needs nothing; a repository
// whose housekeeping is already running is left to it.
func (s *Service) Housekeep(ctx context.Context, projectID int) error {
	p, err := db.ClientFrom(ctx, s.client).Project.Get(ctx, projectID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if p.DiskPath == "" {
		return nil
	}
	repo, err := s.Repository(p)
	if err != nil {
		return err
	}
	if !repo.Exists() {
		return nil
	}
	res, err := repo.Housekeep(ctx, git.HousekeepOptions{})
	if gone, rerr := s.removeIfDeletedMeanwhile(ctx, p); gone || rerr != nil {
		return rerr
	}
	if err != nil {
		return fmt.Errorf("housekeeping of project %d: %w", projectID, err)
	}
	s.log.InfoContext(ctx, "repository housekeeping", "project_id", projectID, "busy", res.Busy,
		"repack", string(res.Repack), "pruned", res.Pruned, "packed_refs", res.PackedRefs,
		"commit_graph", res.CommitGraph, "cleaned", res.CleanedTemp)
	return nil
}

// removeIfDeletedMeanwhile removes p's repository again when p was deleted while its
// housekeeping ran. The deletion queued the repository's removal, which may have run already;
// git processes of the housekeeping still writing then recreate the directories they write
// into (git makes the missing leading directories of a new pack or commit-graph), and that
// directory, owned by no project, would stay. Run once the housekeeping's git processes have
// ended, this removes it; the removal job finds nothing left, or removes it itself.
func (s *Service) removeIfDeletedMeanwhile(ctx context.Context, p *ent.Project) (bool, error) {
	exists, err := db.ClientFrom(ctx, s.client).Project.Query().Where(project.ID(p.ID)).Exist(ctx)
	if err != nil || exists {
		return false, err
	}
	err = s.Storage.Remove(ctx, p.RepositoryStorage, p.DiskPath)
	if errors.Is(err, storage.ErrRepositoryNotFound) {
		err = nil
	}
	return true, err
}
