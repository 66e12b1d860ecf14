package projects

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// SetArchived archives or unarchives a project (GitLab's POST /projects/:id/archive and
// /unarchive): for its Owners and administrators; asking for the state it is already in changes
// nothing and still answers the project.
func (s *Service) SetArchived(ctx context.Context, actor *authz.Actor, ref string, archived bool) (*ent.Project, *View, error) {
	p, err := s.Find(ctx, actor, ref, authz.ArchiveProject)
	if err != nil {
		return nil, nil, err
	}
	if p.Archived != archived {
		err := db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
			if err := tx.Project.UpdateOneID(p.ID).SetArchived(archived).Exec(ctx); err != nil {
				return err
			}
			return s.changed(ctx, tx, actor, Updated, p)
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return s.reload(ctx, actor, p.ID)
}
