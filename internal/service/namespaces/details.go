package namespaces

import (
	"context"

	"anvil/ent"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/projectstatistics"
	"anvil/ent/user"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// entries wraps rows with what load asks for. level is the actor's level in each namespace.
// The counts are computed only where the actor may see them: an owner reads a handful of its
// own namespaces, so a few statements per namespace stay cheap.
func (s *Service) entries(ctx context.Context, actor *authz.Actor, rows []*ent.Namespace, level func(*ent.Namespace) authz.Level, load Load) ([]*Entry, error) {
	out := make([]*Entry, len(rows))
	for i, ns := range rows {
		admin := level(ns) >= authz.Owner
		e := &Entry{Namespace: ns, Admin: admin, ReadBilling: admin, InstanceAdmin: actor.IsAdmin()}
		out[i] = e
		if !load.Details {
			continue
		}
		if e.ReadBilling {
			n, err := s.members.BillableCount(ctx, ns)
			if err != nil {
				return nil, err
			}
			e.BillableMembersCount = &n
		}
		if !admin || ns.Kind != namespace.KindGroup {
			continue
		}
		if err := s.groupCounts(ctx, e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// groupCounts fills a group's members_count_with_descendants, projects_count and, for a
// top-level group, root_repository_size.
func (s *Service) groupCounts(ctx context.Context, e *Entry) error {
	c := db.ClientFrom(ctx, s.client)
	ns := e.Namespace
	var err error
	e.MembersCountWithDescendants, err = c.User.Query().Where(
		user.StateEQ(user.StateActive),
		user.HasMembershipsWith(member.HasNamespaceWith(authz.Subtree(ns.FullPath)), member.State("active"),
			member.Or(member.ExpiresAtIsNil(), member.ExpiresAtGTE(today()))),
	).Count(ctx)
	if err != nil {
		return err
	}
	e.ProjectsCount, err = c.Project.Query().
		Where(project.PendingDelete(false), project.HasNamespaceWith(authz.Subtree(ns.FullPath))).Count(ctx)
	if err != nil || ns.ParentID != nil {
		return err
	}
	var sums []struct {
		Sum *int64 `json:"sum"`
	}
	err = c.ProjectStatistics.Query().
		Where(projectstatistics.HasProjectWith(project.PendingDelete(false), project.HasNamespaceWith(authz.Subtree(ns.FullPath)))).
		Aggregate(ent.Sum(projectstatistics.FieldRepositorySize)).Scan(ctx, &sums)
	if err != nil {
		return err
	}
	var size int64
	if len(sums) > 0 && sums[0].Sum != nil {
		size = *sums[0].Sum
	}
	e.RootRepositorySize = &size
	return nil
}
