package repos

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/db"
)

// DeleteProjects is the groups service's DeleteProjects hook: inside a group deletion's
// transaction it removes the projects ids (already marked pending_delete) as the project
// domain does (its OnDelete hooks, memberships, shares, fork links, rows), and their
// repositories once that transaction commits. The order matters: a repository removed before
// the commit would be lost if the deletion rolled back, while a commit followed by a failed
// removal only leaves an orphan directory (logged) for an administrator to clear.
func (s *Service) DeleteProjects(ctx context.Context, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	c := db.ClientFrom(ctx, s.client)
	rows, err := c.Project.Query().Where(project.IDIn(ids...)).All(ctx)
	if err != nil {
		return err
	}
	for _, p := range rows {
		if err := s.projects.DeleteDependents(ctx, c, p); err != nil {
			return err
		}
	}
	if err := c.Project.Update().Where(project.ForkedFromIDIn(ids...)).ClearForkedFromID().Exec(ctx); err != nil {
		return err
	}
	if _, err := c.Member.Delete().Where(member.ProjectIDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	if _, err := c.ProjectGroupLink.Delete().Where(projectgrouplink.ProjectIDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	if _, err := c.Project.Delete().Where(project.IDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	if err := s.lastCommits.forget(ctx, c, ids...); err != nil {
		return err
	}
	if !afterCommit(ctx, func() { s.removeRepositories(ctx, rows) }) {
		s.removeRepositories(ctx, rows)
	}
	return nil
}

// removeRepositories removes the repositories of deleted projects. Failures are logged: the
// rows are gone and the deletion stands.
func (s *Service) removeRepositories(ctx context.Context, rows []*ent.Project) {
	ctx = context.WithoutCancel(ctx)
	for _, p := range rows {
		if p.DiskPath == "" {
			continue
		}
		if err := s.Storage.Remove(ctx, p.RepositoryStorage, p.DiskPath); err != nil {
			s.log.ErrorContext(ctx, "remove repository of deleted project", "project_id", p.ID, "disk_path", p.DiskPath, "err", err)
		}
	}
}

// afterCommit arranges for fn to run once the transaction in ctx has committed (never when it
// rolls back) and reports true; without a transaction it does nothing and reports false.
func afterCommit(ctx context.Context, fn func()) bool {
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		return false
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			if err := next.Commit(ctx, tx); err != nil {
				return err
			}
			fn()
			return nil
		})
	})
	return true
}
