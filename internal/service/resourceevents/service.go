package resourceevents

import (
	"context"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/pagination"
	"anvil/internal/service/wire"
)

// Finder finds, for actor, the issuable of kind that a URL names (its parent, a project's id
// or path, and its iid), or the issuable domain's not-found error when the actor may not read
// it (invisible is not found).
type Finder func(ctx context.Context, actor *authz.Actor, parent, iid string) (Issuable, error)

// Ref is an issuable as a URL names it: its kind, parent and iid.
type Ref struct {
	Type   string
	Parent string
	IID    string
}

// Service reads issuables' resource events through a registry of kinds: each kind's domain
// registers the Finder that applies its visibility.
type Service struct {
	client  *ent.Client
	finders map[string]Finder
}

// New returns the resource events service; kinds are registered with Register.
func New(client *ent.Client) *Service {
	wire.Require("resourceevents", wire.D("client", client))
	return &Service{client: client, finders: map[string]Finder{}}
}

// Register adds kind's finder (service wiring only).
func (s *Service) Register(kind string, f Finder) { s.finders[kind] = f }

// find is the issuable ref names, as actor reads it.
func (s *Service) find(ctx context.Context, actor *authz.Actor, ref Ref) (Issuable, error) {
	f, ok := s.finders[ref.Type]
	if !ok {
		return Issuable{}, apperr.NotFound(ref.Type)
	}
	return f(ctx, actor, ref.Parent, ref.IID)
}

// StateEvents lists the state events of the issuable ref names, oldest first.
func (s *Service) StateEvents(ctx context.Context, actor *authz.Actor, ref Ref, page pagination.Offset) (pagination.Result[*ent.ResourceStateEvent], error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return pagination.Result[*ent.ResourceStateEvent]{Page: page}, err
	}
	return stateEvents(ctx, s.client, i, page)
}

// StateEvent is the state event id of the issuable ref names.
func (s *Service) StateEvent(ctx context.Context, actor *authz.Actor, ref Ref, id string) (*ent.ResourceStateEvent, error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	return stateEvent(ctx, s.client, i, id)
}

// LabelEvents lists the label events of the issuable ref names, oldest first.
func (s *Service) LabelEvents(ctx context.Context, actor *authz.Actor, ref Ref, page pagination.Offset) (pagination.Result[*ent.ResourceLabelEvent], error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return pagination.Result[*ent.ResourceLabelEvent]{Page: page}, err
	}
	return labelEvents(ctx, s.client, i, page)
}

// LabelEvent is the label event id of the issuable ref names.
func (s *Service) LabelEvent(ctx context.Context, actor *authz.Actor, ref Ref, id string) (*ent.ResourceLabelEvent, error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	return labelEvent(ctx, s.client, i, id)
}

// MilestoneEvents lists the milestone events of the issuable ref names, oldest first.
func (s *Service) MilestoneEvents(ctx context.Context, actor *authz.Actor, ref Ref, page pagination.Offset) (pagination.Result[*ent.ResourceMilestoneEvent], error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return pagination.Result[*ent.ResourceMilestoneEvent]{Page: page}, err
	}
	return milestoneEvents(ctx, s.client, i, page)
}

// MilestoneEvent is the milestone event id of the issuable ref names.
func (s *Service) MilestoneEvent(ctx context.Context, actor *authz.Actor, ref Ref, id string) (*ent.ResourceMilestoneEvent, error) {
	i, err := s.find(ctx, actor, ref)
	if err != nil {
		return nil, err
	}
	return milestoneEvent(ctx, s.client, i, id)
}
