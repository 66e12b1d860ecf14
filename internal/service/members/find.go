package members

import (
	"context"
	"strconv"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/db"
)

// FindByID returns the direct membership with this id as Get shows it to the actor (GraphQL's
// node(id:) for GroupMember and ProjectMember ids): 404 when the membership does not exist or
// its group or project, or its members, are hidden from the actor.
func (s *Service) FindByID(ctx context.Context, actor *authz.Actor, id int) (*Entry, error) {
	m, err := db.ClientFrom(ctx, s.client).Member.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, err
	}
	ref := GroupRef("")
	switch {
	case m.ProjectID != nil:
		ref = ProjectRef(strconv.Itoa(*m.ProjectID))
	case m.NamespaceID != nil:
		ref = GroupRef(strconv.Itoa(*m.NamespaceID))
	default:
		return nil, notFound()
	}
	return s.Get(ctx, actor, ref, m.UserID, false)
}
