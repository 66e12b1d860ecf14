package repos

import (
	"context"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/internal/apperr"
	"anvil/internal/db"
)

// MsgReadOnly is GitLab's refusal of a write to a repository that is moving between storages.
const MsgReadOnly = "The repository is temporarily read-only. Please try again later."

// CheckWritable refuses a write to p's repository while it moves between storages (GitLab's
// repository_read_only): 400 with MsgReadOnly, which git over HTTP answers as a 403. It reads
// the row afresh, because p may have been loaded before the move was scheduled, or before the
// move switched the project to another storage, in which case the repository the caller holds
// is the source copy about to be removed.
func (s *Service) CheckWritable(ctx context.Context, p *ent.Project) error {
	now, err := db.ClientFrom(ctx, s.client).Project.Query().Where(project.ID(p.ID)).
		Select(project.FieldRepositoryReadOnly, project.FieldRepositoryStorage).Only(ctx)
	if ent.IsNotFound(err) {
		return nil // no move is under way: a deletion owns the repository now
	}
	if err != nil {
		return err
	}
	if now.RepositoryReadOnly || now.RepositoryStorage != p.RepositoryStorage {
		return apperr.Refused(MsgReadOnly)
	}
	return nil
}
