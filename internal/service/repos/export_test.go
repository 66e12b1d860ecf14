package repos

import (
	"context"

	"anvil/internal/git"
)

// SetLastCommitBounds lowers the last-commit cache's bounds for a test: entries kept per
// project, and new entries between two checks of the bound.
func SetLastCommitBounds(s *Service, perProject, pruneEvery int) {
	s.lastCommits.perProject, s.lastCommits.pruneEvery = perProject, pruneEvery
}

// StoreLastCommit writes a last-commit cache entry as LastCommitForPath does after asking git.
func StoreLastCommit(s *Service, project int, commit git.ObjectID, path string, id git.ObjectID) error {
	return s.lastCommits.store(context.Background(), lastCommitKey{project: project, key: cacheKey(commit, path)}, id)
}

// LastCommitWritesToPostgres reports whether the cache found PostgreSQL on its first write.
func LastCommitWritesToPostgres(s *Service) bool { return s.lastCommits.postgres }
