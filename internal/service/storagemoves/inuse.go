package storagemoves

import (
	"context"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/projectrepositorystoragemove"
)

// RepositoryInUse reports whether the repository at relPath on storageName belongs to a move
// even though no project names it there: the copy a scheduled or started move is making on its
// destination, or the source a replicated move has yet to remove (or a cleanup_failed one
// kept). A sweep of repositories that no project names must leave these alone.
func RepositoryInUse(ctx context.Context, c *ent.Client, storageName, relPath string) (bool, error) {
	m := projectrepositorystoragemove.HasProjectWith(project.DiskPath(relPath))
	return c.ProjectRepositoryStorageMove.Query().Where(m, projectrepositorystoragemove.Or(
		projectrepositorystoragemove.And(
			projectrepositorystoragemove.DestinationStorageName(storageName),
			projectrepositorystoragemove.StateIn(stateScheduled, stateStarted)),
		projectrepositorystoragemove.And(
			projectrepositorystoragemove.SourceStorageName(storageName),
			projectrepositorystoragemove.StateIn(stateReplicated, stateCleanupFailed)),
	)).Exist(ctx)
}
