package notes

import (
	"context"

	"anvil/internal/authz"
)

// Find returns the noteable ref names if the actor may read it, as its domain decides (the
// award emoji domain reacts to snippets and epics through it).
func (s *Service) Find(ctx context.Context, actor *authz.Actor, ref Ref) (*Target, error) {
	_, t, err := s.find(ctx, actor, ref)
	return t, err
}
