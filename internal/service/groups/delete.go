package groups

import (
	"context"
	"sort"
	"strings"

	"anvil/ent"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Delete removes a group with its descendants, their projects, memberships and shares, in one
// transaction; it needs remove_group (Owner or administrator). Projects are marked
// pending_delete before their rows go, so a reader racing the transaction on another
// connection already treats them as gone.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, ref string) error {
	ns, err := s.Find(ctx, actor, ref, authz.RemoveGroup)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		tree, err := c.Namespace.Query().
			Where(namespace.Or(namespace.ID(ns.ID), namespace.FullPathHasPrefix(ns.FullPath+"/"))).
			Select(namespace.FieldID, namespace.FieldFullPath).All(ctx)
		if err != nil {
			return err
		}
		ids := make([]int, len(tree))
		for i, n := range tree {
			ids[i] = n.ID
		}
		if err := s.deleteProjects(ctx, c, ids); err != nil {
			return err
		}
		if _, err := c.Member.Delete().Where(member.NamespaceIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		if _, err := c.GroupGroupLink.Delete().Where(groupgrouplink.Or(
			groupgrouplink.SharedGroupIDIn(ids...), groupgrouplink.SharedWithGroupIDIn(ids...))).Exec(ctx); err != nil {
			return err
		}
		if _, err := c.ProjectGroupLink.Delete().Where(projectgrouplink.GroupIDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		// Children first, so no row ever points at a deleted parent.
		sort.Slice(tree, func(i, j int) bool {
			return strings.Count(tree[i].FullPath, "/") > strings.Count(tree[j].FullPath, "/")
		})
		for _, n := range tree {
			if err := c.Namespace.DeleteOneID(n.ID).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}

// deleteProjects removes the projects of the namespaces ids through the project domain (their
// rows, memberships, shares and fork links in this transaction, their repositories after it).
func (s *Service) deleteProjects(ctx context.Context, c *ent.Client, ids []int) error {
	pids, err := c.Project.Query().Where(project.NamespaceIDIn(ids...)).IDs(ctx)
	if err != nil || len(pids) == 0 {
		return err
	}
	if err := c.Project.Update().Where(project.IDIn(pids...)).SetPendingDelete(true).Exec(ctx); err != nil {
		return err
	}
	return s.projects.DeleteProjects(ctx, pids)
}
