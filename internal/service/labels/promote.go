package labels

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/ent/issuelabel"
	"anvil/ent/label"
	"anvil/ent/labelsubscription"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/resourcelabelevent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// Promote turns the project label ref names into a label of the project's group (admin_label
// in both): the labels of that title in every project of the group and its subgroups are
// merged into the new group label — their issues, events and subscriptions move to it — and
// removed, as GitLab's Labels::PromoteService does.
func (s *Service) Promote(ctx context.Context, actor *authz.Actor, projectRef, ref string) (View, error) {
	own, err := s.resolve(ctx, actor, Owner{Ref: projectRef}, authz.AdminLabel)
	if err != nil {
		return View{}, err
	}
	ns := own.project.Edges.Namespace
	if ns.Kind != namespace.KindGroup {
		return View{}, apperr.Refused("Failed to promote label due to internal error. Please contact administrators.")
	}
	g, err := s.groups.Find(ctx, actor, strconv.Itoa(ns.ID), authz.AdminLabel)
	if err != nil {
		return View{}, err
	}
	var promoted *ent.Label
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		l, err := s.find(ctx, c, own, ref, false)
		if err != nil {
			return err
		}
		taken, err := c.Label.Query().Where(label.GroupID(g.ID), label.Title(l.Title)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return apperr.Conflict("Label already exists")
		}
		promoted, err = c.Label.Create().SetTitle(l.Title).SetColor(l.Color).SetNillableDescription(l.Description).
			SetGroupID(g.ID).Save(ctx)
		if err != nil {
			return err
		}
		same, err := c.Label.Query().Where(label.Title(l.Title), label.HasProjectWith(
			project.HasNamespaceWith(namespace.Or(namespace.ID(g.ID), authz.Descendants(g.FullPath))))).IDs(ctx)
		if err != nil {
			return err
		}
		if err := c.IssueLabel.Update().Where(issuelabel.LabelIDIn(same...)).SetLabelID(promoted.ID).Exec(ctx); err != nil {
			return err
		}
		if err := c.ResourceLabelEvent.Update().Where(resourcelabelevent.LabelIDIn(same...)).SetLabelID(promoted.ID).Exec(ctx); err != nil {
			return err
		}
		subs, err := c.LabelSubscription.Query().Where(labelsubscription.LabelIDIn(same...)).All(ctx)
		if err != nil {
			return err
		}
		moved := map[int]bool{}
		for _, sub := range subs {
			if !moved[sub.UserID] {
				moved[sub.UserID] = true
				if err := c.LabelSubscription.Create().SetLabelID(promoted.ID).SetUserID(sub.UserID).Exec(ctx); err != nil {
					return err
				}
			}
		}
		_, err = c.Label.Delete().Where(label.IDIn(same...)).Exec(ctx)
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, s.client, actor, owner{group: g}, promoted)
}
