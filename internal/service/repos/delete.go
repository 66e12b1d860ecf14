package repos

import (
	"context"

	"anvil/ent/member"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/db"
)

// DeleteProjects is the groups service's DeleteProjects hook: inside a group deletion's
// transaction it removes the projects ids (already marked pending_delete) as the project
// domain does (its OnDelete hooks, memberships, shares, fork links, rows) and queues the
// removal of their repositories in it (RemoveRepositoryJob): a repository removed before the
// commit would be lost if the deletion rolled back, while the job, committed with the
// deletion, removes it afterwards and is retried until it has.
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
	for _, p := range rows {
		if err := s.queueRemoval(ctx, p); err != nil {
			return err
		}
	}
	return nil
}
