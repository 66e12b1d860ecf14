package issues

import (
	"context"

	"anvil/ent"
	"anvil/ent/resourcemilestoneevent"
	"anvil/ent/resourcestateevent"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/resourceevents"
)

// StateEvents lists the state events of the issue iid of project ref, oldest first.
func (s *Service) StateEvents(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*ent.ResourceStateEvent], error) {
	res := pagination.Result[*ent.ResourceStateEvent]{Page: page}
	is, _, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return res, err
	}
	q := s.client.ResourceStateEvent.Query().Where(resourcestateevent.IssueID(is.ID))
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().Order(resourcestateevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}

// LabelEvents lists the label events of the issue, oldest first, with their labels.
func (s *Service) LabelEvents(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*ent.ResourceLabelEvent], error) {
	is, _, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return pagination.Result[*ent.ResourceLabelEvent]{Page: page}, err
	}
	return resourceevents.LabelEvents(ctx, s.client, resourceevents.Issue(is.ID), page)
}

// LabelEvent reads the issue's label event eventID (GET .../resource_label_events/:resource_label_event_id).
func (s *Service) LabelEvent(ctx context.Context, actor *authz.Actor, ref, iid, eventID string) (*ent.ResourceLabelEvent, error) {
	is, _, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	return resourceevents.LabelEvent(ctx, s.client, resourceevents.Issue(is.ID), eventID, "resource_label_event_id")
}

// MilestoneEvents lists the milestone events of the issue, oldest first, with their milestones.
func (s *Service) MilestoneEvents(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*ent.ResourceMilestoneEvent], error) {
	res := pagination.Result[*ent.ResourceMilestoneEvent]{Page: page}
	is, _, err := s.Find(ctx, actor, ref, iid)
	if err != nil {
		return res, err
	}
	q := s.client.ResourceMilestoneEvent.Query().Where(resourcemilestoneevent.IssueID(is.ID))
	if res.Total, err = q.Clone().Count(ctx); err != nil {
		return res, err
	}
	res.Items, err = q.WithUser().WithMilestone(func(mq *ent.MilestoneQuery) {
		mq.WithGroup().WithProject(func(pq *ent.ProjectQuery) { pq.WithNamespace() })
	}).Order(resourcemilestoneevent.ByID()).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	return res, err
}
