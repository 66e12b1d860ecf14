package epics

import (
	"context"
	"sync"

	"anvil/ent"
	"anvil/internal/authz"
)

// Change is one change of an epic, told to the observers in its transaction: Action is
// "created", "updated" or "destroyed"; Before is the epic as it was (nil on creation), After
// as it is now (nil once destroyed), each with its group (Edges.Group).
type Change struct {
	Action        string
	Before, After *ent.Epic
}

// Observer is told of each epic change in the change's transaction (ctx carries it): the
// to-dos its mentions give. An error rolls the change back.
type Observer interface {
	EpicChanged(ctx context.Context, actor *authz.Actor, ch Change) error
}

// observers are the service's observers (wiring: Observe).
type observers struct {
	mu   sync.RWMutex
	list []Observer
}

// Observe adds an observer of epic changes (wiring, as notes.Service.Observe).
func (s *Service) Observe(o Observer) {
	if o == nil {
		panic("epics: nil observer")
	}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	s.obs.list = append(s.obs.list, o)
}

// changed tells every observer of ch.
func (s *Service) changed(ctx context.Context, actor *authz.Actor, ch Change) error {
	s.obs.mu.RLock()
	list := s.obs.list
	s.obs.mu.RUnlock()
	for _, o := range list {
		if err := o.EpicChanged(ctx, actor, ch); err != nil {
			return err
		}
	}
	return nil
}
