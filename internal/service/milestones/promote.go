package milestones

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/issue"
	"anvil/ent/milestone"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/resourcemilestoneevent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Promote turns the project milestone id into a milestone of the project's group
// (admin_milestone in the project and the group; 403 for a project outside a group): the
// same-titled milestones of the group's projects are merged into it (their issues and events
// move) and removed, as GitLab's Milestones::PromoteService does.
func (s *Service) Promote(ctx context.Context, actor *authz.Actor, projectRef, id string) (*ent.Milestone, error) {
	own, err := s.resolve(ctx, actor, Owner{Ref: projectRef}, authz.AdminMilestone)
	if err != nil {
		return nil, err
	}
	ns := own.project.Edges.Namespace
	if ns.Kind != namespace.KindGroup {
		return nil, apperr.Forbidden("")
	}
	g, err := s.groups.Find(ctx, actor, strconv.Itoa(ns.ID), authz.AdminMilestone)
	if err != nil {
		return nil, err
	}
	var promoted *ent.Milestone
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		m, err := s.find(ctx, own, id)
		if err != nil {
			return err
		}
		if taken, err := c.Milestone.Query().Where(milestone.GroupID(g.ID), milestone.Title(m.Title)).Exist(ctx); err != nil || taken {
			if taken {
				return apperr.Refused("Promotion failed - " + m.Title + " already exists in the group")
			}
			return err
		}
		iid, err := s.nextIID(ctx, owner{group: g})
		if err != nil {
			return err
		}
		promoted, err = c.Milestone.Create().SetIid(iid).SetGroupID(g.ID).SetTitle(m.Title).
			SetNillableDescription(m.Description).SetNillableDueDate(m.DueDate).SetNillableStartDate(m.StartDate).
			SetState(m.State).Save(ctx)
		if err != nil {
			return err
		}
		same, err := c.Milestone.Query().Where(milestone.Title(m.Title),
			milestone.HasProjectWith(project.NamespaceID(g.ID))).IDs(ctx)
		if err != nil {
			return err
		}
		if err := c.Issue.Update().Where(issue.MilestoneIDIn(same...)).SetMilestoneID(promoted.ID).Exec(ctx); err != nil {
			return err
		}
		if err := c.ResourceMilestoneEvent.Update().Where(resourcemilestoneevent.MilestoneIDIn(same...)).
			SetMilestoneID(promoted.ID).Exec(ctx); err != nil {
			return err
		}
		_, err = c.Milestone.Delete().Where(milestone.IDIn(same...)).Exec(ctx)
		return err
	})
	return promoted, err
}
