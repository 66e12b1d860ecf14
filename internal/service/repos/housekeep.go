package repos

import (
	"context"
	"fmt"

	"anvil/ent"
	"anvil/internal/db"
	"anvil/internal/git"
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
	if err != nil {
		return fmt.Errorf("housekeeping of project %d: %w", projectID, err)
	}
	s.log.InfoContext(ctx, "repository housekeeping", "project_id", projectID, "busy", res.Busy,
		"repack", string(res.Repack), "pruned", res.Pruned, "packed_refs", res.PackedRefs,
		"commit_graph", res.CommitGraph, "cleaned", res.CleanedTemp)
	return nil
}
