package epics

import (
	"context"

	"anvil/internal/authz"
	"anvil/internal/service/resourceevents"
)

// EventIssuable is the resourceevents.Finder of epics: the epic iid of group ref as the actor
// reads it (read_epic, and a confidential epic only for those who read confidential epics;
// 404 for others).
func (s *Service) EventIssuable(ctx context.Context, actor *authz.Actor, ref, iid string) (resourceevents.Issuable, error) {
	g, err := s.group(ctx, actor, ref, authz.ReadEpic)
	if err != nil {
		return resourceevents.Issuable{}, err
	}
	e, err := s.find(ctx, actor, g, iid)
	if err != nil {
		return resourceevents.Issuable{}, err
	}
	return resourceevents.Epic(e.ID), nil
}
