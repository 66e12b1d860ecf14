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
		if err := db.ClientFrom(ctx, s.client).Project.UpdateOneID(p.ID).SetArchived(archived).Exec(ctx); err != nil {
			return nil, nil, err
		}
	}
	return s.reload(ctx, actor, p.ID)
}
