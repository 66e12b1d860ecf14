package epics

import (
	"context"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/resourceevents"
)

// LabelEvents lists the label events of the epic iid of group ref, oldest first (GET
// /groups/:id/epics/:epic_iid/resource_label_events): read_epic, and a confidential epic only
// for those who read confidential epics (404 for others).
func (s *Service) LabelEvents(ctx context.Context, actor *authz.Actor, ref, iid string, page pagination.Offset) (pagination.Result[*ent.ResourceLabelEvent], error) {
	e, err := s.readable(ctx, actor, ref, iid)
	if err != nil {
		return pagination.Result[*ent.ResourceLabelEvent]{Page: page}, err
	}
	return resourceevents.LabelEvents(ctx, s.client, resourceevents.Epic(e.ID), page)
}

// LabelEvent reads one label event of the epic (GET
// /groups/:id/epics/:epic_iid/resource_label_events/:resource_label_event_id): 404 Not found
// when the epic has no such event.
func (s *Service) LabelEvent(ctx context.Context, actor *authz.Actor, ref, iid, eventID string) (*ent.ResourceLabelEvent, error) {
	e, err := s.readable(ctx, actor, ref, iid)
	if err != nil {
		return nil, err
	}
	return resourceevents.LabelEvent(ctx, s.client, resourceevents.Epic(e.ID), eventID, "resource_label_event_id")
}

// readable finds the epic iid of group ref as Get does.
func (s *Service) readable(ctx context.Context, actor *authz.Actor, ref, iid string) (*ent.Epic, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return nil, err
	}
	return s.find(ctx, actor, g, iid)
}
