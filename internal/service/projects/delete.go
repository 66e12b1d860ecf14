package projects

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Delete removes the project ref names (remove_project, Owner): it is marked pending_delete,
// its memberships, shares and the rows other domains registered in OnDelete go with it in one
// transaction, forks are detached, and the removal of its repository is queued in that
// transaction as a durable job. GitLab answers the request 202 Accepted.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref string) error {
	p, err := s.Find(ctx, actor, ref, authz.RemoveProject)
	if err != nil {
		return err
	}
	return s.deleteRows(ctx, p)
}

// deleteRows removes a project and everything that references it in one transaction.
func (s *Service) deleteRows(ctx context.Context, p *ent.Project) error {
	return db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		if err := tx.Project.UpdateOneID(p.ID).SetPendingDelete(true).Exec(ctx); err != nil {
			return err
		}
		if err := s.DeleteDependents(ctx, tx, p); err != nil {
			return err
		}
		if _, err := tx.Member.Delete().Where(member.ProjectID(p.ID)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.ProjectGroupLink.Delete().Where(projectgrouplink.ProjectID(p.ID)).Exec(ctx); err != nil {
			return err
		}
		if err := tx.Project.Update().Where(project.ForkedFromID(p.ID)).ClearForkedFromID().Exec(ctx); err != nil {
			return err
		}
		if err := tx.Project.DeleteOneID(p.ID).Exec(ctx); err != nil {
			return err
		}
		return s.repos.Delete(ctx, p)
	})
}
